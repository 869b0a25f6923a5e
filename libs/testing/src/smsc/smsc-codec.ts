import * as smpp from 'smpp';

/** One part as the test SMSC decodes it. */
export interface SmscDecodedPart {
  text: string;
  concat?: { reference: number; total: number; sequence: number };
}

const passThrough = { encode: (value: unknown) => value, decode: (value: unknown) => value };

/** As the carrier layer's `keepRawShortMessages` (apps may not be imported here): idempotent. */
export function keepRawShortMessages(): void {
  for (const command of ['submit_sm', 'deliver_sm', 'data_sm']) {
    const param = smpp.commands[command]?.params?.short_message;
    if (param) param.filter = passThrough;
  }
  const payload = smpp.tlvs.message_payload;
  if (payload) payload.filter = passThrough;
}

/** Reads a concatenation UDH (8-bit `00 03` or 16-bit `08 04` reference) off a part. */
export function splitUdh(
  bytes: Buffer,
  esmClass: number,
): { body: Buffer; concat?: SmscDecodedPart['concat'] } {
  if (!(esmClass & 0x40) || bytes.length === 0) return { body: bytes };
  const udhLength = bytes[0] + 1;
  let concat: SmscDecodedPart['concat'];
  for (let at = 1; at + 1 < udhLength;) {
    const id = bytes[at];
    const length = bytes[at + 1];
    if (id === 0x00 && length === 3)
      concat = { reference: bytes[at + 2], total: bytes[at + 3], sequence: bytes[at + 4] };
    if (id === 0x08 && length === 4)
      concat = {
        reference: bytes.readUInt16BE(at + 2),
        total: bytes[at + 4],
        sequence: bytes[at + 5],
      };
    at += 2 + length;
  }
  return { body: bytes.subarray(udhLength), concat };
}

const gsm = (smpp as unknown as { gsmCoder: { decode(bytes: Buffer, encoding: number): string } })
  .gsmCoder;

/** Interim, until `@switchboard/contracts` exports `decodeSmsPart`: UCS-2 or GSM 7-bit unpacked. */
export function decodePart(dataCoding: number, bytes: Buffer, esmClass: number): SmscDecodedPart {
  const { body, concat } = splitUdh(bytes, esmClass);
  const text =
    dataCoding === 8 ? Buffer.from(body).swap16().toString('utf16le') : gsm.decode(body, 0);
  return concat ? { text, concat } : { text };
}

/** Interim, until `encodeSms` is merged: UCS-2, 67 units a part with an 8-bit concatenation UDH. */
export function encodeInbound(
  text: string,
  reference: number,
): { dataCoding: 0 | 8; parts: Buffer[] } {
  const units = Buffer.from(text, 'utf16le').swap16();
  if (units.length <= 140) return { dataCoding: 8, parts: [units] };
  const chunks: Buffer[] = [];
  for (let at = 0; at < units.length;) {
    let end = Math.min(at + 134, units.length);
    const last = units.readUInt16BE(end - 2);
    if (end < units.length && last >= 0xd800 && last <= 0xdbff) end -= 2;
    chunks.push(units.subarray(at, end));
    at = end;
  }
  const udh = (seq: number) => Buffer.from([5, 0, 3, reference & 0xff, chunks.length, seq]);
  return { dataCoding: 8, parts: chunks.map((chunk, i) => Buffer.concat([udh(i + 1), chunk])) };
}
