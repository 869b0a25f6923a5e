import fc from 'fast-check';
import type { PDU } from 'smpp';
import { carrierMessageIdKey, inSubmitForm, parseReceipt } from './delivery-receipt';
import { receiptOutcome } from '../delivery/receipt-outcome';

const receipt = (text: string, tlvs: Partial<PDU> = {}) =>
  ({ esm_class: 4, data_coding: 0, short_message: Buffer.from(text, 'latin1'), ...tlvs }) as PDU;

describe(parseReceipt.name, () => {
  it('reads the standard text', () => {
    const pdu = receipt(
      'id:0012345 sub:001 dlvrd:001 submit date:2611262101 done date:2611262102 stat:DELIVRD err:000 text:Hello',
    );
    expect(parseReceipt('c', pdu)).toEqual({
      carrier: 'c',
      carrierMessageId: '0012345',
      stat: 'DELIVRD',
      err: '000',
      doneAt: new Date(Date.UTC(2026, 10, 26, 21, 2)),
    });
  });

  it('is lenient: case, order, missing fields, dates with seconds', () => {
    const pdu = receipt('STAT:expired ID:AbC1 Done Date:261126210259 err:');
    expect(parseReceipt('c', pdu)).toEqual({
      carrier: 'c',
      carrierMessageId: 'AbC1',
      stat: 'EXPIRED',
      err: null,
      doneAt: new Date(Date.UTC(2026, 10, 26, 21, 2, 59)),
    });
    expect(parseReceipt('c', receipt('id:7 done date:2613400000'))?.doneAt).toBeNull();
  });

  it('prefers the TLVs, and reads the state from message_state without a text', () => {
    const pdu = receipt('', { receipted_message_id: 'ff01', message_state: 8 });
    expect(parseReceipt('c', pdu)).toMatchObject({ carrierMessageId: 'ff01', stat: 'REJECTD' });
    const both = receipt('id:1 stat:UNDELIV err:012', {
      receipted_message_id: '2',
      message_state: 5,
    });
    expect(parseReceipt('c', both)).toMatchObject({
      carrierMessageId: '2',
      stat: 'UNDELIV',
      err: '012',
    });
  });

  it('reads a TLV id sent without its NUL only up to its end, and takes no state as none', () => {
    // How the library reads an unterminated TLV: into the next TLV's tag (0x0427).
    const unterminated = receipt('', { receipted_message_id: "ABC123\u0004'" });
    expect(parseReceipt('c', unterminated)).toMatchObject({
      carrierMessageId: 'ABC123',
      stat: 'UNSTATED',
    });
    expect(receiptOutcome('UNSTATED')).toMatchObject({ final: false });
  });

  it('gives null for a receipt naming no id, and never throws on garbage', () => {
    expect(parseReceipt('c', receipt('stat:DELIVRD'))).toBeNull();
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.integer({ min: 0, max: 255 }),
        (bytes, coding) => {
          const pdu = receipt('', { short_message: Buffer.from(bytes), data_coding: coding });
          const parsed = parseReceipt('c', pdu);
          if (parsed) expect(typeof parsed.carrierMessageId).toBe('string');
        },
      ),
    );
  });
});

describe(inSubmitForm.name, () => {
  it('turns a receipt id into the base of the submit_sm_resp ids', () => {
    expect(inSubmitForm('11255809', 'decimal')).toBe('abc001');
    expect(inSubmitForm('abc001', 'hex')).toBe('11255809');
    expect(inSubmitForm('abc001', 'same')).toBe('abc001');
    expect(inSubmitForm('not-a-number', 'decimal')).toBe('not-a-number');
  });

  it('meets the submit id under carrierMessageIdKey despite zeros and case', () => {
    expect(carrierMessageIdKey('0011255809')).toBe(carrierMessageIdKey('11255809'));
    expect(carrierMessageIdKey('00ABC001')).toBe(inSubmitForm('11255809', 'decimal'));
    expect(carrierMessageIdKey('000')).toBe('0');
  });
});
