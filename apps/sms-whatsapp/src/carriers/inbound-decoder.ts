import * as smpp from 'smpp';

/** One mobile-originated part, decoded. */
export interface DecodedPart {
  text: string;
  concat?: { reference: number; total: number; sequence: number };
}

const gsm = (smpp as unknown as { gsmCoder: { decode(bytes: Buffer, encoding: number): string } })
  .gsmCoder;

/**
 * Interim decoding of one inbound part until `decodeSmsPart` of `@switchboard/contracts` is
 * merged: the concatenation UDH (8- or 16-bit reference), then UCS-2, Latin-1 or the `smpp`
 * package's own GSM 7-bit table (one septet per octet).
 */
export function decodeInboundPart(
  dataCoding: number,
  bytes: Buffer,
  esmClass: number,
): DecodedPart {
  let body = bytes;
  let concat: DecodedPart['concat'];
  if (esmClass & 0x40 && bytes.length > 0) {
    const udhLength = bytes[0] + 1;
    for (let at = 1; at + 1 < udhLength; at += 2 + bytes[at + 1]) {
      if (bytes[at] === 0x00 && bytes[at + 1] === 3)
        concat = { reference: bytes[at + 2], total: bytes[at + 3], sequence: bytes[at + 4] };
      if (bytes[at] === 0x08 && bytes[at + 1] === 4)
        concat = {
          reference: bytes.readUInt16BE(at + 2),
          total: bytes[at + 4],
          sequence: bytes[at + 5],
        };
    }
    body = bytes.subarray(udhLength);
  }
  const coding = dataCoding & 0x0f;
  const text =
    coding === 8
      ? Buffer.from(body.subarray(0, body.length & ~1))
          .swap16()
          .toString('utf16le')
      : coding === 3
        ? body.toString('latin1')
        : gsm.decode(body, 0);
  return concat ? { text, concat } : { text };
}
