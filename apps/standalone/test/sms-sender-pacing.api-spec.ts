import { BirdClient } from '@messagebird/sdk';
import { call, createWorkspace, startTestSmsc } from '@switchboard/testing';
import type { TestSmsc } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

/**
 * A carrier that allows each sender one submit a second (`sender_tps=1`): a sender's backlog
 * goes out at that pace and in its order, part of it put back in the queue to wait for its
 * turns, while another sender's message on the same carrier is not held up behind it.
 */
describe('SMS senders paced by the carrier cap per sender', () => {
  let smsc: TestSmsc;
  let platform: TestPlatform;
  let bird: BirdClient;

  beforeAll(async () => {
    smsc = await startTestSmsc({ urlParams: { sender_tps: '1' } });
    platform = await startTestPlatform({ RATE_LIMITS: 'off', SMPP_URL: smsc.url });
    const acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    for (const sender of ['Acme', 'AcmeAlerts']) {
      const registered = await call(
        platform.base,
        'POST',
        `/admin/v1/workspaces/${acme.workspace.id}/sms-senders`,
        { token: platform.adminToken, body: { sender } },
      );
      expect(registered.status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await smsc?.stop();
  });

  it('sends a backlog one a second in order, and another sender in between', async () => {
    const texts = ['first', 'second', 'third', 'fourth'];
    const batch = await bird.sms.sendBatch({
      messages: texts.map((text) => ({
        to: '+31612340001',
        from: 'Acme',
        text,
        category: 'transactional' as const,
      })),
    });
    // Turns at 0, 1, 2 and 3 s: the last two are more than a second away, back in the queue.
    const putBack = new Set<string>();
    const watching = (async () => {
      for (let n = 0; n < 100 && putBack.size < 2; n++) {
        const { rows } = await platform.db.query<{ id: string }>(
          `SELECT payload->>'message_id' AS id FROM sms_whatsapp.jobs WHERE payload ? 'paced_at'`,
        );
        for (const row of rows) putBack.add(row.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const other = await bird.sms.send({
      to: '+31612340002',
      from: 'AcmeAlerts',
      text: 'other sender',
      category: 'transactional',
    });
    await smsc.waitFor(5, 20_000);
    await watching;
    expect([...putBack].sort()).toEqual(
      batch.data
        .slice(2)
        .map((message) => message.id)
        .sort(),
    );
    const paced = smsc.submits.filter((submit) => submit.source.addr === 'Acme');
    expect(paced.map((submit) => submit.text)).toEqual(texts);
    // Turns 1 s apart; the third and fourth were put back in the queue for theirs.
    for (let i = 1; i < paced.length; i++)
      expect(paced[i].receivedAt - paced[i - 1].receivedAt).toBeGreaterThanOrEqual(950);
    const [alone] = smsc.submits.filter((submit) => submit.source.addr === 'AcmeAlerts');
    expect(alone.text).toBe('other sender');
    expect(alone.receivedAt).toBeLessThan(paced[1].receivedAt);
    for (const id of [...batch.data.map((message) => message.id), other.id]) {
      let read = await bird.sms.get(id);
      for (let tries = 0; read.status === 'accepted' && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        read = await bird.sms.get(id);
      }
      expect(read.status).toBe('sent');
    }
  }, 30_000);

  it("sends a passcode ahead of its sender's backlog, still at the sender's cap", async () => {
    const before = smsc.submits.length;
    await bird.sms.sendBatch({
      messages: ['later one', 'later two', 'later three'].map((text) => ({
        to: '+31612340003',
        from: 'Acme',
        text,
        category: 'marketing' as const,
      })),
    });
    await bird.sms.send({
      to: '+31612340004',
      from: 'Acme',
      text: 'Your code is 123456',
      category: 'authentication',
    });
    await smsc.waitFor(() => smsc.submits.length >= before + 4, 20_000);
    const sent = smsc.submits.slice(before);
    const texts = sent.map((submit) => submit.text);
    expect(texts.filter((text) => text.startsWith('later'))).toEqual([
      'later one',
      'later two',
      'later three',
    ]);
    // Sent after the backlog, it went before the backlog's second (or even its first).
    expect(texts.indexOf('Your code is 123456')).toBeLessThan(texts.indexOf('later two'));
    for (let i = 1; i < sent.length; i++)
      expect(sent[i].receivedAt - sent[i - 1].receivedAt).toBeGreaterThanOrEqual(950);
  }, 30_000);
});
