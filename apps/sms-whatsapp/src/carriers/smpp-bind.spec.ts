import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { startTestSmsc } from '@switchboard/testing';
import { startRig } from '../../test/carrier-rig';
import type { CarrierRig } from '../../test/carrier-rig';
import { gsmSubmission } from '../../test/carrier-rig';
import { CarrierSubmitError } from './sms-carrier';
import * as smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import { reconnectDelayMs, sendGathered, SmppBind } from './smpp-bind';
import { SmppCarriers } from './smpp.carriers';
import { parseSmppUrl } from './smpp-url';

const TO = '+447700900123';

describe(SmppBind.name, () => {
  let rig: CarrierRig | undefined;
  afterEach(async () => {
    await rig?.stop();
    rig = undefined;
  });

  it('binds as a transceiver with the credentials and keeps the link alive with enquire_link', async () => {
    rig = await startRig([{ params: { enquire_link: '1' } }]);
    const [smsc] = rig.smscs;
    expect(smsc.counters.binds).toBe(1);
    await smsc.waitFor(() => smsc.counters.enquireLinks >= 2, 5000);
    expect(await smsc.enquireLink()).toBe(1);
    expect(rig.carriers.binds()).toEqual([{ carrier: 'c0', bound: true, inFlight: 0, window: 10 }]);
  });

  it('comes back after the SMSC restarts, and sends what was queued meanwhile', async () => {
    rig = await startRig([{}]);
    const carriers = rig.carriers;
    const [smsc] = rig.smscs;
    await smsc.stop();
    await rig.until(() => !carriers.binds()[0].bound);
    const sends = ['one', 'two', 'three'].map((text) => carriers.submit(gsmSubmission(TO, text)));
    await smsc.restart();
    const outcomes = await Promise.all(sends);
    expect(outcomes.map((o) => o?.carrierMessageIds.length)).toEqual([1, 1, 1]);
    expect(smsc.messages.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    expect(smsc.counters.binds).toBe(2);
  });

  it('keeps at most `window` submits awaiting their response', async () => {
    rig = await startRig([{ smsc: { responseDelayMs: 50 }, params: { window: '3' } }]);
    const carriers = rig.carriers;
    const texts = Array.from({ length: 12 }, (_, i) => `m${i}`);
    await Promise.all(texts.map((text) => carriers.submit(gsmSubmission(TO, text))));
    expect(rig.smscs[0].counters.maxPending).toBe(3);
    expect(rig.smscs[0].messages.map((m) => m.text)).toEqual(texts);
  });

  it('holds the tps cap', async () => {
    rig = await startRig([{ params: { tps: '50', window: '100' } }]);
    const carriers = rig.carriers;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 80 }, (_, i) => carriers.submit(gsmSubmission(TO, `t${i}`))),
    );
    // A burst of 5, then one every 20 ms, never more than 50 in a second: 75 more need 1.5 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1450);
    const times = rig.smscs[0].submits.map((s) => s.receivedAt);
    const inAnySecond = Math.max(
      ...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length),
    );
    // Sent: at most 50 in any second. The SMSC's receive times may bunch a few closer.
    expect(inAnySecond).toBeLessThanOrEqual(55);
    expect(rig.smscs[0].messages).toHaveLength(80);
  });

  it('holds each sender to sender_tps without holding up the other senders behind it', async () => {
    rig = await startRig([{ params: { sender_tps: '4', window: '10' } }]);
    const carriers = rig.carriers;
    const capped = Array.from({ length: 4 }, (_, i) =>
      carriers.submit(gsmSubmission(TO, `a${i}`, '+31612340001')),
    );
    const others = ['b0', 'b1'].map((text) =>
      carriers.submit(gsmSubmission(TO, text, '+31612340002')),
    );
    await Promise.all([...capped, ...others]);
    const submits = rig.smscs[0].submits;
    const from = (addr: string) => submits.filter((submit) => submit.source.addr === addr);
    const a = from('31612340001');
    expect(a.map((submit) => submit.text)).toEqual(['a0', 'a1', 'a2', 'a3']);
    // One every 250 ms (the SMSC's clock may see two a little closer than they left).
    for (let i = 1; i < a.length; i++)
      expect(a[i].receivedAt - a[i - 1].receivedAt).toBeGreaterThanOrEqual(240);
    const b = from('31612340002');
    expect(b.map((submit) => submit.text)).toEqual(['b0', 'b1']);
    // Queued behind the first sender's four, the other's first went before that sender's second.
    expect(b[0].receivedAt).toBeLessThan(a[1].receivedAt);
  });

  it('pauses on ESME_RTHROTTLED and ESME_RMSGQFUL and resends in order', async () => {
    rig = await startRig([{ params: { window: '1' } }]);
    const carriers = rig.carriers;
    const [smsc] = rig.smscs;
    smsc.throttleNext(3);
    smsc.throttleNext(1, 0x14);
    const texts = Array.from({ length: 6 }, (_, i) => `o${i}`);
    const outcomes = await Promise.all(
      texts.map((text) => carriers.submit(gsmSubmission(TO, text))),
    );
    expect(smsc.counters.throttled).toBe(4);
    expect(smsc.messages.map((m) => m.text)).toEqual(texts);
    expect(outcomes.every((o) => o?.carrierMessageIds.length === 1)).toBe(true);
  });

  it('fails a refused submit permanently with the normalised code', async () => {
    rig = await startRig([{}]);
    const carriers = rig.carriers;
    rig.smscs[0].throttleNext(1, 0x0b);
    const failure = carriers.submit(gsmSubmission(TO, 'nope'));
    await expect(failure).rejects.toMatchObject({
      temporary: false,
      code: 'invalid_destination',
      commandStatus: 0x0b,
      carrier: 'c0',
    });
    await expect(failure).rejects.toBeInstanceOf(CarrierSubmitError);
  });

  it('times a lost submit_sm_resp out as a temporary failure, binds afresh, and goes on', async () => {
    rig = await startRig([{ params: { submit_timeout: '1' } }]);
    const carriers = rig.carriers;
    rig.smscs[0].dropResponses(1);
    await expect(carriers.submit(gsmSubmission(TO, 'lost'))).rejects.toMatchObject({
      temporary: true,
      code: 'provider_unavailable',
    });
    // The link that lost an answer is dropped: no late answer can land on a slot given up.
    await expect(carriers.submit(gsmSubmission(TO, 'next'))).resolves.toMatchObject({
      carrier: 'c0',
    });
    expect(rig.smscs[0].counters.binds).toBe(2);
  });

  it('fails the submits in flight as temporary when the connection drops', async () => {
    rig = await startRig([{ smsc: { responseDelayMs: 500 } }]);
    const carriers = rig.carriers;
    const inFlight = carriers.submit(gsmSubmission(TO, 'cut'));
    await rig.smscs[0].waitFor(1);
    await rig.smscs[0].stop();
    await expect(inFlight).rejects.toMatchObject({ temporary: true });
  });

  it('sends the parts of a message in order through one bind, with the UDH flag', async () => {
    rig = await startRig([{ params: { window: '5' } }]);
    const carriers = rig.carriers;
    const udh = (seq: number) => Buffer.from([5, 0, 3, 7, 3, seq]);
    const parts = ['first ', 'second ', 'third'].map((text, i) =>
      Buffer.concat([udh(i + 1), Buffer.from(text, 'latin1')]),
    );
    const outcome = await carriers.submit({
      messageId: 'sms_parts',
      from: 'Bird',
      to: TO,
      dataCoding: 0,
      parts,
    });
    expect(outcome.carrierMessageIds).toHaveLength(3);
    const [smsc] = rig.smscs;
    expect(smsc.messages).toHaveLength(1);
    expect(smsc.messages[0].text).toBe('first second third');
    expect(smsc.submits.map((s) => [s.concat?.sequence, s.esmClass])).toEqual([
      [1, 0x40],
      [2, 0x40],
      [3, 0x40],
    ]);
    expect(smsc.submits[0].source).toEqual({ addr: 'Bird', ton: 5, npi: 0 });
    expect(smsc.submits[0].destination).toEqual({ addr: '447700900123', ton: 1, npi: 1 });
    expect(smsc.submits[0].registeredDelivery).toBe(1);
  });

  it('stops sending on a session the SMSC unbinds, closes it, and binds again', async () => {
    rig = await startRig([{}]);
    const [smsc] = rig.smscs;
    const { carriers } = rig;
    expect(await smsc.unbind()).toBe(1);
    expect(carriers.binds()[0].bound).toBe(false);
    await smsc.waitFor(() => smsc.counters.binds >= 2, 5000);
    await rig.until(() => carriers.binds()[0].bound);
    await expect(carriers.submit(gsmSubmission(TO, 'after the unbind'))).resolves.toMatchObject({
      carrierMessageIds: [expect.any(String)],
    });
    expect(smsc.submits.map((submit) => submit.text)).toEqual(['after the unbind']);
  });

  it('tries again with back-off after a refused bind', async () => {
    const smsc = await startTestSmsc({ password: 'right' });
    const carriers = new SmppCarriers(parseSmppUrl(smsc.url.replace(':right@', ':wrong@')), {
      reconnectBaseMs: 20,
      reconnectMaxMs: 200,
    });
    carriers.start();
    try {
      await smsc.waitFor(() => smsc.counters.bindsRefused >= 3, 5000);
      expect(carriers.binds()[0].bound).toBe(false);
      expect(smsc.counters.binds).toBe(0);
    } finally {
      await carriers.close();
      await smsc.stop();
    }
  });

  it('drops a connection the SMSC accepts but never binds, and tries again', async () => {
    const accepted: Socket[] = [];
    const silent = createServer((socket) => void accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const carriers = new SmppCarriers(parseSmppUrl(`smpp://sb:pw@127.0.0.1:${port}`), {
      reconnectBaseMs: 20,
      reconnectMaxMs: 50,
      bindTimeoutMs: 100,
    });
    carriers.start();
    try {
      const until = Date.now() + 5000;
      while (accepted.length < 3 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(accepted.length).toBeGreaterThanOrEqual(3);
      expect(carriers.binds()[0].bound).toBe(false);
    } finally {
      await carriers.close();
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('fails what waits for a bind as temporary after submit_timeout', async () => {
    rig = await startRig([{ params: { submit_timeout: '1' } }]);
    const { carriers } = rig;
    await rig.smscs[0].stop();
    await rig.until(() => !carriers.binds()[0].bound);
    const started = Date.now();
    await expect(rig.carriers.submit(gsmSubmission(TO, 'waits'))).rejects.toMatchObject({
      temporary: true,
      code: 'provider_unavailable',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

describe(reconnectDelayMs.name, () => {
  it('doubles to reconnectMaxMs, and to five minutes once the credentials were refused', () => {
    const tuning = { reconnectBaseMs: 500, reconnectMaxMs: 30_000 };
    const delays = (refused: boolean) =>
      Array.from({ length: 12 }, (_, attempt) => reconnectDelayMs(attempt, refused, tuning));
    expect(delays(false).slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
    expect(Math.max(...delays(false))).toBe(30_000);
    expect(delays(true).slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
    expect(Math.max(...delays(true))).toBe(300_000);
    expect(reconnectDelayMs(1000, true, {})).toBe(300_000);
  });
});

describe(sendGathered.name, () => {
  it('sends the PDUs of one turn through a corked socket, uncorked once the turn ends', async () => {
    const calls: string[] = [];
    const session = {
      socket: { cork: () => calls.push('cork'), uncork: () => calls.push('uncork') },
      send: () => calls.push('send') > 0,
    } as unknown as Session;
    const pdu = {} as PDU;
    expect(sendGathered(session, pdu)).toBe(true);
    sendGathered(session, pdu);
    expect(calls).toEqual(['cork', 'send', 'send']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['cork', 'send', 'send', 'uncork']);
    sendGathered(session, pdu);
    expect(calls.slice(4)).toEqual(['cork', 'send']);
  });
});

describe('an undecodable deliver_sm', () => {
  it('is answered generic_nack, and the session reads on', async () => {
    const nacks: number[] = [];
    let peer: Session | undefined;
    const server = smpp.createServer((session: Session) => {
      session.on('bind_transceiver', (pdu: PDU) => {
        peer = session;
        session.send(pdu.response());
      });
      session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
      session.on('generic_nack', (pdu: PDU) => nacks.push(pdu.sequence_number));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const carriers = new SmppCarriers(parseSmppUrl(`smpp://sb:pw@127.0.0.1:${port}`));
    const inbound: string[] = [];
    carriers.listen({
      onReceipt: () => Promise.resolve(),
      onInbound: (message) => Promise.resolve(void inbound.push(message.text)),
    });
    carriers.start();
    try {
      const until = Date.now() + 5000;
      while (!carriers.binds()[0].bound && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const valid = new smpp.PDU('deliver_sm', {
        source_addr: '447700900123',
        destination_addr: '447700900999',
        short_message: Buffer.from('after it'),
        sequence_number: 8,
      }).toBuffer();
      // The same with a last TLV (message_state) whose length says 0: its value runs past the end.
      const bad = Buffer.concat([valid, Buffer.from([0x04, 0x27, 0x00, 0x00])]);
      bad.writeUInt32BE(bad.length, 0);
      bad.writeUInt32BE(7, 12);
      peer?.socket.write(bad);
      peer?.socket.write(valid);
      while ((nacks.length === 0 || inbound.length === 0) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(nacks).toEqual([7]);
      expect(inbound).toEqual(['after it']);
    } finally {
      await carriers.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
