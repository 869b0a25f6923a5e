// GSM 03.38 default alphabet, carried unpacked (one septet per octet) as SMPP data_coding 0 has it.

const ESCAPE = 0x1b;

/** The basic table, indexed by septet; 0x1B is the escape to the extension table. */
const BASIC_TABLE =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The ten extension characters: each costs two septets, the escape and this code. */
const EXTENSION_TABLE: ReadonlyArray<readonly [string, number]> = [
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
];

const BASIC_CODES = new Map<string, number>(
  [...BASIC_TABLE].flatMap((char, code) => (code === ESCAPE ? [] : [[char, code] as const])),
);
const EXTENSION_CODES = new Map<string, number>(EXTENSION_TABLE);
const EXTENSION_CHARS = new Map<number, string>(
  EXTENSION_TABLE.map(([char, code]) => [code, char]),
);

/** Septets one character costs under GSM-7: 1, 2 for the extension table, undefined outside it. */
export function gsm7CharSeptets(char: string): 1 | 2 | undefined {
  if (BASIC_CODES.has(char)) return 1;
  return EXTENSION_CODES.has(char) ? 2 : undefined;
}

export function isGsm7(text: string): boolean {
  for (const char of text) if (gsm7CharSeptets(char) === undefined) return false;
  return true;
}

/** Septets the text costs; throws when a character is outside the alphabet. */
export function gsm7Septets(text: string): number {
  let septets = 0;
  for (const char of text) septets += requireSeptets(char);
  return septets;
}

export function encodeGsm7(text: string): Buffer {
  const septets: number[] = [];
  for (const char of text) {
    const basic = BASIC_CODES.get(char);
    if (basic !== undefined) septets.push(basic);
    else septets.push(ESCAPE, requireExtension(char));
  }
  return Buffer.from(septets);
}

/**
 * Decodes unpacked septets. Per GSM 03.38 an escape followed by a code the extension table does
 * not define shows the basic table's character for that code; escape-escape (reserved for another
 * extension table) and a trailing escape show a space. An octet above 0x7F is no septet: U+FFFD.
 */
export function decodeGsm7(buffer: Buffer): string {
  let text = '';
  for (let i = 0; i < buffer.length; i++) {
    const code = buffer[i];
    if (code !== ESCAPE) {
      text += basicChar(code);
      continue;
    }
    const next = buffer[i + 1];
    if (next === undefined || next === ESCAPE) text += ' ';
    else text += EXTENSION_CHARS.get(next) ?? basicChar(next);
    i++;
  }
  return text;
}

function basicChar(code: number): string {
  return code > 0x7f ? '\ufffd' : BASIC_TABLE[code];
}

function requireSeptets(char: string): number {
  const septets = gsm7CharSeptets(char);
  if (septets === undefined) throw new Error(`U+${codePoint(char)} is outside the GSM-7 alphabet`);
  return septets;
}

function requireExtension(char: string): number {
  const code = EXTENSION_CODES.get(char);
  if (code === undefined) throw new Error(`U+${codePoint(char)} is outside the GSM-7 alphabet`);
  return code;
}

function codePoint(char: string): string {
  return (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}
