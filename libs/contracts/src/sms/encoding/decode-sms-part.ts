import { decodeGsm7 } from './gsm7';
import { decodeUcs2 } from './ucs2';

/** esm_class bit 0x40 (UDHI): the short_message starts with a user data header. */
const UDH_INDICATOR = 0x40;
const CONCAT_8BIT_IE = 0x00;
const CONCAT_16BIT_IE = 0x08;

export interface SmsConcatenation {
  /** The reference the parts of one message share (8 or 16 bits). */
  readonly reference: number;
  readonly total: number;
  /** This part's position, from 1. */
  readonly sequence: number;
}

export interface DecodedSmsPart {
  readonly text: string;
  /** Present when the UDH carries a concatenation element: the part of a longer message. */
  readonly concat?: SmsConcatenation;
}

/**
 * The text of one received short_message (deliver_sm, or submit_sm at a test SMSC). Reads the UDH
 * when esm_class has 0x40 (concatenation elements 0x00 and 0x08; others are skipped) and decodes
 * data_coding 0 (GSM 03.38, unpacked), 8 (UCS-2), 1 and 3 (IA5, Latin-1) and the 0xF0-0xFF message
 * class group (GSM or 8-bit by its bit 2). Throws on a UDH that overruns the message and on a
 * data_coding it does not know (binary, other national scripts).
 */
export function decodeSmsPart(
  dataCoding: number,
  shortMessage: Buffer,
  esmClass: number,
): DecodedSmsPart {
  let body = shortMessage;
  let concat: SmsConcatenation | undefined;
  if ((esmClass & UDH_INDICATOR) !== 0) {
    const headerLength = shortMessage[0];
    if (headerLength === undefined || headerLength + 1 > shortMessage.length) {
      throw new Error('the user data header overruns the short message');
    }
    concat = readConcatenation(shortMessage.subarray(1, headerLength + 1));
    body = shortMessage.subarray(headerLength + 1);
  }
  const text = decodeBody(dataCoding, body);
  return concat ? { text, concat } : { text };
}

function readConcatenation(header: Buffer): SmsConcatenation | undefined {
  const elements: Buffer[] = [];
  for (let i = 0; i < header.length;) {
    const length = header[i + 1];
    if (length === undefined || i + 2 + length > header.length) {
      throw new Error('an information element overruns the user data header');
    }
    elements.push(header.subarray(i, i + 2 + length));
    i += 2 + length;
  }
  return concatenationOf(elements);
}

/**
 * The concatenation a UDH's information elements (each `id length data...`, as the smpp package
 * hands them over in `short_message.udh`) describe: the last 0x00 or 0x08 element, if any.
 */
export function concatenationOf(elements: readonly Buffer[]): SmsConcatenation | undefined {
  let concat: SmsConcatenation | undefined;
  for (const element of elements) {
    const [id, length] = element;
    if (id === CONCAT_8BIT_IE && length === 3 && element.length >= 5) {
      concat = { reference: element[2], total: element[3], sequence: element[4] };
    } else if (id === CONCAT_16BIT_IE && length === 4 && element.length >= 6) {
      concat = { reference: element.readUInt16BE(2), total: element[4], sequence: element[5] };
    }
  }
  return concat;
}

function decodeBody(dataCoding: number, body: Buffer): string {
  if (dataCoding === 0) return decodeGsm7(body);
  if (dataCoding === 8) return decodeUcs2(body);
  if (dataCoding === 1 || dataCoding === 3) return body.toString('latin1');
  if (dataCoding >= 0xf0 && dataCoding <= 0xff) {
    return (dataCoding & 0x04) === 0 ? decodeGsm7(body) : body.toString('latin1');
  }
  throw new Error(`data_coding ${dataCoding} is not a text encoding this decoder knows`);
}
