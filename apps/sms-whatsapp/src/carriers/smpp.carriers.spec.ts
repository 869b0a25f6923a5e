import { gsmSubmission, startRig } from '../../test/carrier-rig';
import type { CarrierRig } from '../../test/carrier-rig';
import { carrierMessageIdKey } from './delivery-receipt';
import { startTestSmsc } from '@switchboard/testing';
import { SmppCarriers, validityFor } from './smpp.carriers';
import { parseSmppUrl } from './smpp-url';

const TO = '+31612345678';

describe(SmppCarriers.name, () => {
  let rig: CarrierRig | undefined;
  afterEach(async () => {
    await rig?.stop();
    rig = undefined;
  });

  it.each([
    ['tlv', 'hex', 'same', 'same'],
    ['text', 'hex', 'other', 'decimal'],
    ['text', 'decimal', 'other', 'hex'],
    ['both', 'decimal', 'same', 'same'],
  ] as const)(
    'matches receipts from %s with %s ids quoted %s (receipt_ids=%s)',
    async (receiptFormat, messageIds, receiptIds, param) => {
      rig = await startRig([
        {
          smsc: {
            receiptFormat,
            messageIds,
            receiptIds,
            receipts: (submit) =>
              submit.text === 'late'
                ? { stat: 'EXPIRED', err: '027' }
                : submit.text === 'gone'
                  ? { stat: 'UNDELIV', err: '001', beforeResponse: true }
                  : { stat: 'DELIVRD' },
          },
          params: { receipt_ids: param },
        },
      ]);
      const { carriers } = rig;
      const outcomes = await Promise.all(
        ['ok', 'late', 'gone'].map((text) => carriers.submit(gsmSubmission(TO, text))),
      );
      await rig.until(() => rig?.receipts.length === 3);
      const byId = new Map(rig.receipts.map((r) => [carrierMessageIdKey(r.carrierMessageId), r]));
      const [ok, late, gone] = outcomes.map((o) =>
        byId.get(carrierMessageIdKey(o.carrierMessageIds[0])),
      );
      expect(ok).toMatchObject({ carrier: 'c0', stat: 'DELIVRD' });
      expect(late).toMatchObject({ stat: 'EXPIRED', err: receiptFormat === 'tlv' ? null : '027' });
      expect(gone).toMatchObject({ stat: 'UNDELIV' });
      if (receiptFormat !== 'tlv') expect(ok?.doneAt).toBeInstanceOf(Date);
      await rig.smscs[0].waitFor(() => rig?.smscs[0].counters.deliverAcked === 3);
    },
  );

  it('answers a receipt with an error when the listener fails, and takes it again', async () => {
    rig = await startRig([
      { smsc: { receipts: () => ({ stat: 'REJECTD' }), redeliverAfterMs: 20 } },
    ]);
    let failures = 1;
    rig.listener.onReceipt = () =>
      failures-- > 0 ? Promise.reject(new Error('db down')) : Promise.resolve();
    await rig.carriers.submit(gsmSubmission(TO, 'retry'));
    await rig.until(() => rig?.smscs[0].deliverResponses.length === 2);
    expect(rig.receipts).toHaveLength(1);
    expect(rig.smscs[0].deliverResponses.map((r) => r.status)).toEqual([0x64, 0]);
  });

  it('hands each part of a long inbound message up, answering each only once it is stored', async () => {
    rig = await startRig([{}]);
    let release: () => void = () => undefined;
    const recorded = new Promise<void>((resolve) => (release = resolve));
    rig.listener.onInbound = () => recorded;
    const text =
      'A long reply, ünïcödé and all, that does not fit in one part of seventy characters 🙂 at all.';
    const sent = rig.smscs[0].sendInbound({ from: '+447700900123', to: TO, text });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rig.smscs[0].deliverResponses).toEqual([]);
    release();
    await sent;
    expect(rig.inbound).toEqual([
      { carrier: 'c0', from: '+447700900123', to: TO, text, receivedAt: expect.any(Date) },
    ]);
    expect(rig.smscs[0].deliverResponses.map((r) => r.status)).toEqual([0, 0]);
  });

  it('reassembles an inbound message whose parts are numbered by SAR TLVs instead of a UDH', async () => {
    rig = await startRig([{}]);
    const text =
      "A long answer in two parts, numbered by TLVs, ending in: please don't stop. ".repeat(3);
    await rig.smscs[0].sendInbound({ from: '+447700900123', to: TO, text, sar: true });
    expect(rig.inbound).toEqual([
      { carrier: 'c0', from: '+447700900123', to: TO, text, receivedAt: expect.any(Date) },
    ]);
  });

  it('refuses an inbound message the listener could not record, and takes the redelivery', async () => {
    rig = await startRig([{ smsc: { redeliverAfterMs: 20 } }]);
    let failures = 1;
    rig.listener.onInbound = () =>
      failures-- > 0 ? Promise.reject(new Error('db down')) : Promise.resolve();
    const text = `${'x'.repeat(190)} {€[~]}`; // GSM 7-bit, its extension table included
    await rig.smscs[0].sendInbound({ from: '+447700900123', to: TO, text });
    expect(rig.inbound.map((m) => m.text)).toEqual([text]);
    // The part refused is sent again and taken; the others were taken the first time.
    const statuses = rig.smscs[0].deliverResponses.map((r) => r.status);
    expect(statuses.filter((status) => status === 0x64)).toHaveLength(1);
    expect(statuses.filter((status) => status === 0).length).toBeGreaterThan(1);
  });

  it('answers a part at once, whether or not the rest of its message ever comes', async () => {
    // An SMSC sending one deliver_sm at a time waits for this answer before the next part.
    rig = await startRig([{ smsc: { redeliverAttempts: 0 } }]);
    const smsc = rig.smscs[0];
    await smsc.sendInbound({
      from: '+447700900123',
      to: TO,
      text: 'y'.repeat(200),
      onlyParts: [2],
    });
    expect(smsc.deliverResponses.map((r) => r.status)).toEqual([0]);
    expect(rig.parts).toEqual([
      expect.objectContaining({ part: expect.objectContaining({ sequence: 2, total: 2 }) }),
    ]);
    expect(rig.inbound).toEqual([]);
  });

  it('routes by the longest destination prefix; carriers without prefixes take the rest', async () => {
    rig = await startRig([{ params: { prefixes: '3' } }, { params: { prefixes: '31;4477' } }, {}]);
    const { carriers } = rig;
    const sent = await Promise.all(
      ['+31612345678', '+32470123456', '+447700900123', '+15555550123'].map((to) =>
        carriers.submit(gsmSubmission(to, `to ${to}`)),
      ),
    );
    expect(sent.map((o) => o.carrier)).toEqual(['c1', 'c0', 'c1', 'c2']);
    expect(rig.smscs.map((s) => s.messages.map((m) => m.to))).toEqual([
      ['32470123456'],
      ['31612345678', '447700900123'],
      ['15555550123'],
    ]);
  });

  it('refuses a submission without parts or with a part too long for short_message', async () => {
    rig = await startRig([{}]);
    const empty = { ...gsmSubmission(TO, 'x'), parts: [] };
    // Unpacked GSM 7-bit fills 160 octets; UCS-2 140.
    const longGsm = { ...gsmSubmission(TO, 'x'), parts: [Buffer.alloc(161)] };
    const longUcs2 = {
      ...gsmSubmission(TO, 'x'),
      dataCoding: 8 as const,
      parts: [Buffer.alloc(141)],
    };
    for (const submission of [empty, longGsm, longUcs2])
      await expect(rig.carriers.submit(submission)).rejects.toMatchObject({
        temporary: false,
        code: 'content_rejected',
      });
    expect(rig.smscs[0].counters.submits).toBe(0);
  });

  it('is not configured without carriers, and refuses submits', async () => {
    const none = new SmppCarriers([]);
    expect(none.configured).toBe(false);
    await expect(none.submit(gsmSubmission(TO, 'x'))).rejects.toMatchObject({
      temporary: false,
      code: 'provider_unavailable',
    });
  });

  it('asks the carrier to give a message up a little before the receipt time-out', async () => {
    const smsc = await startTestSmsc();
    const carriers = new SmppCarriers(parseSmppUrl(smsc.url), { receiptTimeoutSeconds: 72 * 3600 });
    carriers.start();
    try {
      await carriers.submit(gsmSubmission(TO, 'valid for 71 hours'));
      const [submit] = smsc.submits;
      const hours = ((submit.validUntil?.getTime() ?? 0) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(70.9);
      expect(hours).toBeLessThanOrEqual(71);
    } finally {
      await carriers.close();
      await smsc.stop();
    }
  });
});

describe(validityFor.name, () => {
  it('is the time-out less a tenth, at most an hour, in the relative form', () => {
    expect(validityFor(72 * 3600)).toBe('000002230000000R');
    expect(validityFor(600)).toBe('000000000900000R');
    expect(validityFor(3 * 86_400 + 61)).toBe('000002230101000R');
  });

  it('leaves the carrier its default under a minute, and caps at 99 days', () => {
    expect(validityFor(undefined)).toBeUndefined();
    expect(validityFor(30)).toBeUndefined();
    expect(validityFor(365 * 86_400)).toBe('000099235959000R');
  });
});
