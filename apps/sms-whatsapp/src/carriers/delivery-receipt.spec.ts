import fc from 'fast-check';
import type { PDU } from 'smpp';
import { carrierMessageIdKey, deliverKind, inSubmitForm, parseReceipt } from './delivery-receipt';
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
    // A receipt stating everything in TLVs: SMPP 5.0's SKIPPED, the error in network_error_code.
    const tlvs = receipt('', {
      receipted_message_id: '3',
      message_state: 9,
      network_error_code: Buffer.from([0x03, 0x00, 0x0b]),
    });
    expect(parseReceipt('c', tlvs)).toMatchObject({ stat: 'SKIPPED', err: '011' });
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

describe(deliverKind.name, () => {
  const kindOf = (esmClass: number) => deliverKind({ esm_class: esmClass } as PDU);

  it('reads the SMSC receipt and the intermediate notification as receipts, UDH bit or not', () => {
    expect([0x04, 0x44, 0x20, 0x60].map(kindOf)).toEqual([
      'receipt',
      'receipt',
      'receipt',
      'receipt',
    ]);
  });

  it('reads a default message as mobile-originated, and acknowledgements as neither', () => {
    expect([0x00, 0x40, 0x80].map(kindOf)).toEqual([
      'mobile_originated',
      'mobile_originated',
      'mobile_originated',
    ]);
    // SME delivery and manual acknowledgements, conversation abort: never stored as inbound.
    expect([0x08, 0x10, 0x18].map(kindOf)).toEqual(['other', 'other', 'other']);
  });
});
