import type { PDU } from 'smpp';
import type { CarrierReceipt } from './sms-carrier';

/** SMPP 3.4 section 5.2.28: the `message_state` TLV as the receipt's `stat`. */
const STATE_STAT: Record<number, string> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
  // SMPP 5.0: accepted but never transmitted.
  9: 'SKIPPED',
};

/**
 * The `network_error_code` TLV (network type, then a 2-octet error code) as an `err`, for a
 * receipt that states its error there only; null when absent or not 3 octets.
 */
function networkErr(pdu: PDU): string | null {
  const tlv = pdu.network_error_code;
  if (!Buffer.isBuffer(tlv) || tlv.length !== 3) return null;
  return String(tlv.readUInt16BE(1)).padStart(3, '0');
}

/** esm_class bits 2-5 of a `deliver_sm` (SMPP 3.4 section 5.2.12): the message type. */
const MESSAGE_TYPE = 0x3c;
const SMSC_DELIVERY_RECEIPT = 0x04;
const INTERMEDIATE_NOTIFICATION = 0x20;

/**
 * What a `deliver_sm` carries: a delivery receipt (the SMSC's, or an intermediate notification,
 * both in the receipt format), a mobile-originated message, or something else (an SME delivery
 * or manual acknowledgement, a conversation abort) that is neither and is only acknowledged.
 */
export function deliverKind(pdu: PDU): 'receipt' | 'mobile_originated' | 'other' {
  const type = (pdu.esm_class ?? 0) & MESSAGE_TYPE;
  if (type === 0) return 'mobile_originated';
  if (type === SMSC_DELIVERY_RECEIPT || type === INTERMEDIATE_NOTIFICATION) return 'receipt';
  return 'other';
}

function field(text: string, name: string): string | null {
  const match = new RegExp(`(?:^|\\s)${name}\\s*:\\s*(\\S*)`, 'i').exec(text);
  return match?.[1] ? match[1] : null;
}

/** `yyMMddHHmm`, or with seconds; taken as UTC (the receipt names no zone). */
function smppDate(raw: string | null): Date | null {
  const match = raw ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/.exec(raw) : null;
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((n) => Number(n ?? 0));
  const date = new Date(Date.UTC(2000 + year, month - 1, day, hour, minute, second));
  const valid = date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24;
  return valid && minute < 60 && second < 60 ? date : null;
}

/** The receipt's text: `short_message`, else `message_payload` (UCS-2 when data_coding says). */
function receiptText(pdu: PDU): string {
  const bytes =
    pdu.short_message && pdu.short_message.length > 0 ? pdu.short_message : pdu.message_payload;
  if (!bytes || bytes.length === 0) return '';
  if ((pdu.data_coding ?? 0) === 8)
    return Buffer.from(bytes.subarray(0, bytes.length & ~1))
      .swap16()
      .toString('utf16le');
  return bytes.toString('latin1');
}

/**
 * Reads a receipt from its TLVs (`receipted_message_id`, `message_state`) or, failing them,
 * from the text `id:... sub:... dlvrd:... submit date:... done date:... stat:... err:...`,
 * leniently: any case, fields missing or reordered, dates with or without seconds. Null when
 * it names no message id (nothing could ever match it).
 */
export function parseReceipt(carrier: string, pdu: PDU): CarrierReceipt | null {
  const text = receiptText(pdu);
  // Read up to its NUL, or to the first control character: a TLV sent without its NUL is read
  // by the library into the next TLV's header (`ABC123\u0004'`), which would match nothing.
  const tlvId = pdu.receipted_message_id?.split(/[\u0000-\u001f]/)[0].trim();
  const carrierMessageId = tlvId || field(text, 'id');
  if (!carrierMessageId) return null;
  const textStat = /(?:^|\s)stat\s*:\s*([A-Za-z_]+)/i.exec(text)?.[1]?.toUpperCase();
  const stateStat = pdu.message_state === undefined ? undefined : STATE_STAT[pdu.message_state];
  return {
    carrier,
    carrierMessageId,
    // Stating nothing is not the UNKNOWN state (final): a status the carrier did not name, which
    // a later receipt for the part can still settle.
    stat: textStat ?? stateStat ?? 'UNSTATED',
    err: field(text, 'err') ?? networkErr(pdu),
    doneAt: smppDate(/(?:^|\s)done\s*date\s*:\s*(\d+)/i.exec(text)?.[1] ?? null),
  };
}

/**
 * The form in which to store and look up a carrier message id: carriers pad ids with zeros or
 * change their case between `submit_sm_resp` and the receipt. The pipeline keys both sides by it.
 */
export function carrierMessageIdKey(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/^0+(?=.)/, '');
}

/**
 * A receipt's id in the form of the `submit_sm_resp` ids, for a carrier whose receipts quote
 * them in another base (`receipt_ids=decimal`: hex answered, decimal quoted; `hex`: the other
 * way). Unchanged when the id is not a number in that base.
 */
export function inSubmitForm(id: string, receiptIds: 'same' | 'hex' | 'decimal'): string {
  if (receiptIds === 'decimal' && /^\d{1,30}$/.test(id)) return BigInt(id).toString(16);
  if (receiptIds === 'hex' && /^[0-9a-f]{1,30}$/i.test(id)) return BigInt(`0x${id}`).toString(10);
  return id;
}
