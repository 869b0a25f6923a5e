// UCS-2 as SMPP data_coding 8 carries it: UTF-16BE, so a character outside the Basic
// Multilingual Plane (most emoji) is a surrogate pair of two 16-bit units.

export function encodeUcs2(text: string): Buffer {
  const buffer = Buffer.alloc(text.length * 2);
  for (let i = 0; i < text.length; i++) buffer.writeUInt16BE(text.charCodeAt(i), i * 2);
  return buffer;
}

/**
 * Decodes 16-bit units as they are, lone surrogates included, so a pair a sender split across two
 * concatenated parts joins again when the parts' texts are concatenated. A trailing odd octet is
 * no unit: U+FFFD.
 */
export function decodeUcs2(buffer: Buffer): string {
  const units: number[] = [];
  for (let i = 0; i + 1 < buffer.length; i += 2) units.push(buffer.readUInt16BE(i));
  let text = '';
  for (let i = 0; i < units.length; i += 4096) {
    text += String.fromCharCode(...units.slice(i, i + 4096));
  }
  return buffer.length % 2 === 1 ? text + '\ufffd' : text;
}

/**
 * A lone surrogate is no character: no handset can show it and UTF-8 (PostgreSQL, JSON on the
 * wire) cannot hold it, so it is replaced by U+FFFD, as `String.prototype.toWellFormed` does.
 */
export function replaceLoneSurrogates(text: string): string {
  return text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
}
