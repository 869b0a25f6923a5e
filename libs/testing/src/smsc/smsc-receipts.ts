import type { PduFields } from 'smpp';
import type { SmscReceiptPlan, SmscSubmit, TestSmscOptions } from './test-smsc.types';

/** SMPP 3.4 section 5.2.28 `message_state` of each receipt `stat`. */
const MESSAGE_STATE: Record<string, number> = {
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
};

/** The ids the SMSC hands out: hex with letters in it, or decimal with leading zeros. */
export function messageIdOf(n: number, form: 'hex' | 'decimal'): string {
  const value = 0xabc000 + n;
  return form === 'hex' ? value.toString(16) : value.toString(10).padStart(10, '0');
}

/** The same id in the other base (what some carriers quote in their receipts). */
export function otherForm(id: string, form: 'hex' | 'decimal'): string {
  return form === 'hex' ? String(parseInt(id, 16)) : parseInt(id, 10).toString(16);
}

function smppDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    two(date.getUTCFullYear() % 100) +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes())
  );
}

/** The `deliver_sm` of a receipt for `submit`, in the SMSC's configured forms. */
export function receiptPdu(
  submit: SmscSubmit,
  plan: SmscReceiptPlan,
  options: TestSmscOptions,
): PduFields {
  const form = options.messageIds ?? 'hex';
  const id = options.receiptIds === 'other' ? otherForm(submit.messageId, form) : submit.messageId;
  const format = options.receiptFormat ?? 'both';
  const delivered = plan.stat === 'DELIVRD' ? '001' : '000';
  const text =
    `id:${format === 'tlv' ? '' : id} sub:001 dlvrd:${delivered} ` +
    `submit date:${smppDate(new Date(submit.receivedAt))} done date:${smppDate(new Date())} ` +
    `stat:${plan.stat} err:${plan.err ?? '000'} text:${submit.text.slice(0, 20)}`;
  const fields: PduFields = {
    source_addr_ton: submit.destination.ton,
    source_addr_npi: submit.destination.npi,
    source_addr: submit.destination.addr,
    dest_addr_ton: submit.source.ton,
    dest_addr_npi: submit.source.npi,
    destination_addr: submit.source.addr,
    esm_class: 0x04,
    data_coding: 0,
    short_message: Buffer.from(format === 'tlv' ? '' : text, 'latin1'),
  };
  if (format !== 'text') {
    fields.receipted_message_id = id;
    fields.message_state = MESSAGE_STATE[plan.stat] ?? 7;
  }
  return fields;
}
