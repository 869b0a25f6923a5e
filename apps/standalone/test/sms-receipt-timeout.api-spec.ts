import { BirdClient } from '@messagebird/sdk';
import { call, createWorkspace, startTestSmsc } from '@switchboard/testing';
import type { TestSmsc } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A carrier that takes messages and never sends their receipts: past
 * `SMS_RECEIPT_TIMEOUT_SECONDS` the message is `expired`, not `sent` for ever.
 */
describe('SMS whose final receipt never comes', () => {
  let smsc: TestSmsc;
  let platform: TestPlatform;
  let bird: BirdClient;

  beforeAll(async () => {
    smsc = await startTestSmsc({});
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      SMPP_URL: smsc.url,
      SMS_RECEIPT_TIMEOUT_SECONDS: '2',
    });
    const acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    const registered = await call(
      platform.base,
      'POST',
      `/admin/v1/workspaces/${acme.workspace.id}/sms-senders`,
      { token: platform.adminToken, body: { sender: 'Acme' } },
    );
    expect(registered.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await smsc?.stop();
  });

  it('expires a sent message after the time-out, with last_error unknown and sms.expired', async () => {
    const message = await bird.sms.send({
      to: '+31612340001',
      from: 'Acme',
      text: 'No receipt for this one',
      category: 'transactional',
    });
    const sent = await eventually(
      () => bird.sms.get(message.id),
      (read) => read.status !== 'accepted',
    );
    expect(sent.status).toBe('sent');
    const expired = await eventually(
      () => bird.sms.get(message.id),
      (read) => read.status !== 'sent',
    );
    expect(expired.status).toBe('expired');
    expect(expired.last_error).toMatchObject({ code: 'unknown' });
    const events = await bird.sms.listEvents(message.id);
    expect(events.data.map((event) => event.type)).toEqual(
      expect.arrayContaining(['sms.sent', 'sms.expired']),
    );
  });
});
