import * as smpp from 'smpp';

type FromStream = (stream: NodeJS.ReadableStream, commandLength: number) => smpp.PDU | false;

/** The event a session emits for a request whose body could not be decoded. */
export const MALFORMED_EVENT = 'malformed_request';

let patched = false;

/**
 * Makes the `smpp` package hand over a request whose body does not decode (a TLV whose length
 * runs past the PDU, say) as a `malformed_request` PDU with its header, instead of throwing in
 * its read loop: the loop then stays stuck for good (it never clears its busy flag), so nothing
 * more is read on the session, and the carrier delivers the same PDU again after every rebind.
 * Answered with a generic_nack, the carrier drops it and the session goes on. A malformed
 * response still throws (its session is dropped: a response cannot be nacked). Process-wide and
 * idempotent.
 */
export function answerMalformedRequests(): void {
  if (patched) return;
  patched = true;
  const pduClass = smpp.PDU as unknown as { fromStream: FromStream; prototype: object };
  pduClass.fromStream = (stream, commandLength) => {
    // fromStream reads the whole PDU before decoding it: take the bytes and decode them here.
    const body = stream.read(commandLength - 4) as Buffer | null;
    if (!body) return false;
    const bytes = Buffer.concat([Buffer.alloc(4), body]);
    bytes.writeUInt32BE(commandLength, 0);
    try {
      return new smpp.PDU(bytes as unknown as string);
    } catch (err) {
      const commandId = bytes.length >= 8 ? bytes.readUInt32BE(4) : 0;
      if (bytes.length < 16 || commandId & 0x80000000) throw err;
      return Object.assign(Object.create(pduClass.prototype) as smpp.PDU, {
        command: MALFORMED_EVENT,
        command_length: commandLength,
        command_id: commandId,
        command_status: bytes.readUInt32BE(8),
        sequence_number: bytes.readUInt32BE(12),
        error: (err as Error).message,
      });
    }
  };
}
