import { encodeGsm7 } from './gsm7';
import type { SmsTextMeasure, SmsTextOptions } from './measure-sms';
import { SMS_MAX_SEGMENTS, splitSms } from './measure-sms';
import { encodeUcs2 } from './ucs2';

/** SMPP data_coding: 0 the GSM 03.38 default alphabet (unpacked), 8 UCS-2 (UTF-16BE). */
export type SmsDataCoding = 0 | 8;

export interface EncodedSms {
  readonly segments: SmsTextMeasure;
  readonly dataCoding: SmsDataCoding;
  /** Each part's short_message; several parts carry the concatenation UDH (esm_class 0x40). */
  readonly parts: Buffer[];
}

export interface EncodeSmsOptions extends SmsTextOptions {
  /** The concatenation reference (0-255) the parts of this message share. */
  readonly reference: number;
}

/** Information element 0x00: concatenated short message, 8-bit reference. */
const CONCAT_8BIT_IE = 0x00;

/**
 * The submit_sm payloads of a body: one part without a UDH when it fits one segment, otherwise
 * parts that each start with the UDH `05 00 03 ref total seq`. Throws above 12 segments.
 */
export function encodeSms(text: string, options: EncodeSmsOptions): EncodedSms {
  const { reference } = options;
  if (!Number.isInteger(reference) || reference < 0 || reference > 0xff) {
    throw new Error(`the concatenation reference must be an integer 0-255, got ${reference}`);
  }
  const { segments, parts: texts } = splitSms(text, options);
  const total = texts.length;
  if (total > SMS_MAX_SEGMENTS) {
    throw new Error(`the body needs ${total} segments, more than ${SMS_MAX_SEGMENTS}`);
  }
  const gsm = segments.encoding === 'GSM_7BIT';
  const payloads = texts.map(gsm ? encodeGsm7 : encodeUcs2);
  const parts =
    total === 1
      ? payloads
      : payloads.map((payload, index) =>
          Buffer.concat([
            Buffer.from([0x05, CONCAT_8BIT_IE, 0x03, reference, total, index + 1]),
            payload,
          ]),
        );
  return { segments, dataCoding: gsm ? 0 : 8, parts };
}
