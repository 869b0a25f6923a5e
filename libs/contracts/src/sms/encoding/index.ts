// SMS text encoding, Nest-free: GSM 03.38 and UCS-2, the segment rule the SDK documents, the
// `smart_encoding` option, and the SMPP short_message payloads (concatenation UDH) both ways.
export { SMS_MAX_SEGMENTS, measureSms } from './measure-sms';
export type { SmsTextEncoding, SmsTextMeasure, SmsTextOptions } from './measure-sms';
export { encodeSms } from './encode-sms';
export type { EncodeSmsOptions, EncodedSms, SmsDataCoding } from './encode-sms';
export { concatenationOf, decodeSmsPart } from './decode-sms-part';
export type { DecodedSmsPart, SmsConcatenation } from './decode-sms-part';
export { applySmartEncoding } from './smart-encoding';
export { decodeGsm7, encodeGsm7, gsm7CharSeptets, gsm7Septets, isGsm7 } from './gsm7';
export { decodeUcs2, encodeUcs2, replaceLoneSurrogates } from './ucs2';
