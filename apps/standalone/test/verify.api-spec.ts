import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdClient, BirdNotFoundError } from '@messagebird/sdk';
import type { Verification } from '@messagebird/sdk';
import { simpleParser } from 'mailparser';
import { call, createWorkspace, startSmtpSink, startTestSmsc } from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink, TestSmsc } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

const OUR_NUMBER = '+31612340000';

/** A check's answer or an error envelope, as the raw calls read them. */
interface RawAnswer {
  reason?: string;
  attempts_remaining?: number | null;
  error: { code: string; details: Array<{ param: string }> };
}
const TTL_SECONDS = 8;
const TEST_NUMBER = '+31699990000';
/** The local SMSC takes SMS to it, then reports them undelivered. */
const UNREACHABLE = '+31699990001';

async function eventually<T>(read: () => T | Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Verify end to end on the embedded default with the official SDK: passcodes reach a local SMSC
 * (through the SMS service's system template) and a local SMTP sink (through the email
 * service), the first service-to-service sends. Short lifetime and cooldown so nothing waits
 * ten minutes.
 */
describe('Verify through the gateway', () => {
  let platform: TestPlatform;
  let smsc: TestSmsc;
  let sink: SmtpSink;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let phone = 31612345000;
  const nextPhone = () => `+${++phone}`;

  const smsCodes = (to: string) =>
    smsc.submits
      .filter((submit) => submit.destination.addr === to.slice(1))
      .map((submit) => /code (?:is|lautet) (\d+)/.exec(submit.text)?.[1] as string);
  const lastSmsCode = async (to: string, count = 1) =>
    (
      await eventually(
        () => smsCodes(to),
        (codes) => codes.length >= count,
      )
    ).at(-1) as string;
  const emailCode = async (to: string) => {
    const message = await eventually(
      () => sink.messages.filter((m) => m.rcptTo.includes(to)),
      (found) => found.length > 0,
    );
    const parsed = await simpleParser(message.at(-1)!.raw);
    return /code is (\d+)/.exec(parsed.text ?? '')?.[1] as string;
  };
  const raw = (
    path: string,
    body: unknown,
    token = acme.api_key.secret,
    headers: Record<string, string> = {},
  ) =>
    call<RawAnswer & { success?: boolean }>(
      platform.base,
      'POST',
      `/v1/verify/verifications${path}`,
      { token, body, headers },
    );

  beforeAll(async () => {
    [smsc, sink] = await Promise.all([
      startTestSmsc({
        receipts: (submit) =>
          submit.destination.addr === UNREACHABLE.slice(1)
            ? { stat: 'UNDELIV', err: '001' }
            : { stat: 'DELIVRD', err: '000' },
      }),
      startSmtpSink(),
    ]);
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      SMPP_URL: smsc.url,
      SMTP_RELAY_URL: sink.url,
      VERIFY_CODE_TTL_SECONDS: String(TTL_SECONDS),
      VERIFY_RESEND_COOLDOWN_SECONDS: '1',
      VERIFY_TEST_RECIPIENTS: `*:${TEST_NUMBER}, *:Reviewer@Example.com`,
      VERIFY_TEST_CODE: '424242',
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    const stocked = await call(platform.base, 'POST', '/admin/v1/numbers', {
      token: platform.adminToken,
      body: { number: OUR_NUMBER, number_type: 'mobile', capabilities: ['sms'] },
    });
    expect(stocked.status).toBe(201);
    expect((await bird.numbers.orders.create({ number: OUR_NUMBER })).status).toBe('completed');
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([smsc?.stop(), sink?.stop()]);
  });

  it('sends an SMS passcode from the workspace number, never returns it, and verifies the right code once', async () => {
    const to = nextPhone();
    const verification = await bird.verify.verifications.create({
      to: { phone_number: to },
      metadata: { signup: 'S-1' },
    });
    expect(verification).toMatchObject({
      status: 'pending',
      reason: null,
      to: { phone_number: to },
      channels: [{ channel: 'sms' }, { channel: 'whatsapp' }],
      // The answer comes at commit; the SMS service takes the passcode just after.
      last_channel: null,
      metadata: { signup: 'S-1' },
      verified_at: null,
    });
    expect(verification.id).toMatch(/^vrf_/);
    const code = await lastSmsCode(to);
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify(verification)).not.toContain(code);
    const submit = smsc.submits.find((s) => s.destination.addr === to.slice(1))!;
    expect(submit.source.addr).toBe(OUR_NUMBER.slice(1));
    // Once the carrier has it, the SMS service keeps the body with the code's placeholder only.
    const stored = await eventually(
      async () =>
        (
          await platform.db.query<{ text: string; redacted_text: string | null }>(
            `SELECT text, redacted_text FROM sms_whatsapp.sms_messages
             WHERE to_address = $1 AND status <> 'accepted'`,
            [to],
          )
        ).rows,
      (rows) => rows.length > 0,
    );
    expect(stored[0]).toEqual({
      text: expect.stringContaining('{{ code }}'),
      redacted_text: null,
    });
    expect(stored[0].text).not.toContain(code);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const miss = await bird.verify.verifications.check({ to: { phone_number: to }, code: wrong });
    expect(miss).toMatchObject({ success: false, reason: 'incorrect_code', attempts_remaining: 4 });
    // Not digits: just as incorrect (the SDK: a 200, not an error), and counted.
    const typo = await bird.verify.verifications.check({
      to: { phone_number: to },
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(typo).toMatchObject({ success: false, reason: 'incorrect_code', attempts_remaining: 3 });
    const hit = await bird.verify.verifications.check({ to: { phone_number: to }, code });
    expect(hit).toMatchObject({
      success: true,
      reason: null,
      attempts_remaining: null,
      verification: { id: verification.id, status: 'verified', reason: null },
    });
    expect(hit.verification.verified_at).toEqual(expect.any(String));
    // Final: one 404 for final and missing alike.
    const again = await raw('/check', { to: { phone_number: to }, code });
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'E13000' });
  });

  it('sends an email passcode from verify@ the onboarding domain to any address', async () => {
    const to = `someone.${Date.now()}@example.net`;
    const verification = await bird.verify.verifications.create({ to: { email: to } });
    expect(verification).toMatchObject({ channels: [{ channel: 'email' }] });
    const code = await emailCode(to);
    const message = sink.messages.find((m) => m.rcptTo.includes(to))!;
    expect((await simpleParser(message.raw)).from?.value[0].address).toBe(
      'verify@onboarding.localhost',
    );
    const hit = await bird.verify.verifications.check({ to: { email: to.toUpperCase() }, code });
    expect(hit.success).toBe(true);
    // The email service keeps what it sent, but never answers a passcode message's content.
    const emails = await call<{ data: Array<{ id: string; metadata: Record<string, unknown> }> }>(
      platform.base,
      'GET',
      '/v1/email/messages?limit=100',
      { token: acme.api_key.secret },
    );
    const sent = emails.body.data.find(
      (m) => m.metadata.switchboard_verification_id === verification.id,
    );
    expect(sent?.id).toMatch(/^em_/);
    const content = await call<RawAnswer>(
      platform.base,
      'GET',
      `/v1/email/messages/${sent?.id}/content`,
      { token: acme.api_key.secret },
    );
    expect(content.status).toBe(404);
    expect(content.body.error.code).toBe('E04008');
    expect(JSON.stringify(content.body)).not.toContain(code);
  });

  it('reuses the verification in progress: no send within the cooldown, a resend after it (both codes valid)', async () => {
    const to = nextPhone();
    const first = await bird.verify.verifications.create({ to: { phone_number: to } });
    const firstCode = await lastSmsCode(to);
    const reused = await bird.verify.verifications.create({ to: { phone_number: to } });
    expect(reused.id).toBe(first.id);
    await sleep(300);
    expect(smsCodes(to)).toHaveLength(1);
    await sleep(1000);
    const resent = await bird.verify.verifications.create({ to: { phone_number: to } });
    expect(resent.id).toBe(first.id);
    const secondCode = await lastSmsCode(to, 2);
    expect(smsCodes(to)).toHaveLength(2);
    // Either passcode verifies; here the first one.
    expect(secondCode).toMatch(/^\d{6}$/);
    const hit = await bird.verify.verifications.check({
      to: { phone_number: to },
      code: firstCode,
    });
    expect(hit.success).toBe(true);
  });

  it('answers 429 past the hourly cap of 5 sends per recipient, and nothing more is sent', async () => {
    const to = nextPhone();
    for (let send = 1; send <= 5; send++) {
      await bird.verify.verifications.create({ to: { phone_number: to } });
      await lastSmsCode(to, send);
      await sleep(1050);
    }
    const capped = await raw('', { to: { phone_number: to } });
    expect(capped.status).toBe(429);
    expect(capped.body.error).toMatchObject({ code: 'E07010' });
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(3000);
    await sleep(300);
    expect(smsCodes(to)).toHaveLength(5);
  }, 30_000);

  it('holds the hourly cap for concurrent creates that share a phone number beside different emails', async () => {
    const to = nextPhone();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        raw('', { to: { phone_number: to, email: `cap-${n}@example.com` } }),
      ),
    );
    // Distinct recipients, so each is a new verification; their sends share the phone's cap.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3);
    await lastSmsCode(to, 5);
    await sleep(300);
    expect(smsCodes(to)).toHaveLength(5);
  });

  it('counts 20 concurrent wrong checks atomically: never more than the limit, then the right code is refused', async () => {
    const to = nextPhone();
    await bird.verify.verifications.create({ to: { phone_number: to } });
    const code = await lastSmsCode(to);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => raw('/check', { to: { phone_number: to }, code: wrong })),
    );
    const counted = answers.filter((a) => a.status === 200);
    const incorrect = counted.filter((a) => a.body.reason === 'incorrect_code');
    expect(incorrect.length).toBe(4);
    expect(incorrect.map((a) => a.body.attempts_remaining).sort()).toEqual([1, 2, 3, 4]);
    expect(
      counted.filter((a) => a.body.reason === 'attempts_exhausted').length,
    ).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.status === 200 || a.status === 404)).toBe(true);
    const late = await raw('/check', { to: { phone_number: to }, code });
    expect(late.status).toBe(404);
  });

  it('exhausts attempts one by one: the fifth wrong code fails it with attempts_exhausted', async () => {
    const to = nextPhone();
    await bird.verify.verifications.create({ to: { phone_number: to } });
    const code = await lastSmsCode(to);
    const wrong = code === '000000' ? '000001' : '000000';
    let result;
    for (let check = 1; check <= 5; check++)
      result = await bird.verify.verifications.check({ to: { phone_number: to }, code: wrong });
    expect(result).toMatchObject({
      success: false,
      reason: 'attempts_exhausted',
      attempts_remaining: null,
      verification: { status: 'failed', reason: 'attempts_exhausted' },
    });
  });

  it('expires after its configured lifetime, then a create starts a new one', async () => {
    const to = nextPhone();
    const first = await bird.verify.verifications.create({ to: { phone_number: to } });
    const code = await lastSmsCode(to);
    expect(new Date(first.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(
      TTL_SECONDS * 1000,
    );
    await sleep(TTL_SECONDS * 1000 + 300);
    const late = await bird.verify.verifications.check({ to: { phone_number: to }, code });
    expect(late).toMatchObject({
      success: false,
      reason: 'expired',
      attempts_remaining: null,
      verification: { status: 'expired', reason: 'ttl_elapsed' },
    });
    expect((await raw('/check', { to: { phone_number: to }, code })).status).toBe(404);
    const fresh = await bird.verify.verifications.create({ to: { phone_number: to } });
    expect(fresh.id).not.toBe(first.id);
    expect(fresh.status).toBe('pending');
  }, 30_000);

  it('next-channel: moves to the next channel, NoAvailableChannel when it cannot send, NoNextChannel at the end', async () => {
    const to = nextPhone();
    await bird.verify.verifications.create({ to: { phone_number: to } });
    const smsCode = await lastSmsCode(to);
    // WhatsApp is next; the workspace has no approved authentication template.
    const unavailable = await raw('/next-channel', { to: { phone_number: to } });
    expect(unavailable.status).toBe(422);
    expect(unavailable.body.error).toMatchObject({ code: 'E01114' });
    expect(unavailable.body.error.details[0].param).toBe('channels.whatsapp');
    const exhausted = await raw('/next-channel', { to: { phone_number: to } });
    expect(exhausted.status).toBe(422);
    expect(exhausted.body.error).toMatchObject({ code: 'E01113' });
    // "Create the verification again to resend on the current channel": SMS, where codes arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const resent = await bird.verify.verifications.create({ to: { phone_number: to } });
    expect(resent.last_channel).toBe('sms');
    const secondCode = await lastSmsCode(to, 2);
    // The earlier passcode stays valid.
    const hit = await bird.verify.verifications.check({ to: { phone_number: to }, code: smsCode });
    expect(hit.success).toBe(true);
    expect(secondCode).toMatch(/^\d+$/);
    const none = await raw('/next-channel', { to: { phone_number: to } });
    expect(none.status).toBe(404);
  });

  it('next-channel from SMS to email when both are given, bypassing the cooldown', async () => {
    const phoneNumber = nextPhone();
    const email = `both.${Date.now()}@example.org`;
    const created = await bird.verify.verifications.create({
      to: { phone_number: phoneNumber, email },
      // `rcs` is a channel this deployment does not know: ignored, as the SDK says.
      options: { channels: ['rcs', 'sms', 'email'] },
    });
    expect(created.channels).toEqual([{ channel: 'sms' }, { channel: 'email' }]);
    await lastSmsCode(phoneNumber);
    const moved: Verification = await bird.verify.verifications.nextChannel({
      to: { phone_number: phoneNumber, email },
    });
    expect(moved.last_channel).toBe('email');
    const code = await emailCode(email);
    // Found only by the full set of addresses it was created with.
    const partial = await raw('/check', { to: { email }, code });
    expect(partial.status).toBe(404);
    const hit = await bird.verify.verifications.check({
      to: { phone_number: phoneNumber, email },
      code,
    });
    expect(hit.success).toBe(true);
  });

  it('moves to the next channel by itself when the SMS it sent comes back undelivered', async () => {
    const email = `unreachable.${Date.now()}@example.org`;
    const created = await bird.verify.verifications.create({
      to: { phone_number: UNREACHABLE, email },
      options: { channels: ['sms', 'email'] },
    });
    expect(created.channels).toEqual([{ channel: 'sms' }, { channel: 'email' }]);
    const smsCode = await lastSmsCode(UNREACHABLE);
    // The receipt says UNDELIV: a fresh passcode goes to the email address, nobody asking.
    const code = await emailCode(email);
    expect(code).not.toBe(smsCode);
    const hit = await bird.verify.verifications.check({
      to: { phone_number: UNREACHABLE, email },
      code,
    });
    expect(hit).toMatchObject({ success: true, verification: { last_channel: 'email' } });
    const attempts = await platform.db.query<{ channel: string; status: string }>(
      `SELECT channel, status FROM verify_lookup_preferences.verification_attempts
       WHERE verification_id = $1 ORDER BY created_at`,
      [created.id],
    );
    expect(attempts.rows).toEqual([
      { channel: 'sms', status: 'undelivered' },
      { channel: 'email', status: expect.stringMatching(/^(sent|delivered)$/) },
    ]);
  });

  it('takes any language tag: a regional one falls back to its base language, then English', async () => {
    const subjects: Record<string, string> = {};
    for (const language of ['pt-br', 'fr-CA', 'en-US', 'zu']) {
      const to = `lang.${language.toLowerCase()}.${Date.now()}@example.net`;
      await bird.verify.verifications.create({ to: { email: to }, options: { language } });
      const message = await eventually(
        () => Promise.resolve(sink.messages.filter((m) => m.rcptTo.includes(to))),
        (found) => found.length > 0,
      );
      subjects[language] = (await simpleParser(message[0].raw)).subject ?? '';
    }
    expect(subjects).toEqual({
      'pt-br': 'Seu código de verificação',
      'fr-CA': 'Votre code de vérification',
      'en-US': 'Your verification code',
      zu: 'Your verification code',
    });
  });

  it('refuses bad input with 422 and details, never a 500', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['', { to: { phone_number: '0612345678' } }, 'to.phone_number'],
      ['', { to: { email: 'not-an-address' } }, 'to.email'],
      ['', { to: {} }, 'to'],
      [
        '',
        { to: { phone_number: '+31612345678' }, options: { code_length: 2 } },
        'options.code_length',
      ],
      [
        '',
        { to: { phone_number: '+31612345678' }, options: { channels: ['fax'] } },
        'options.channels',
      ],
      ['', { to: { phone_number: '+31612345678' }, extra: 1 }, 'extra'],
      [
        '',
        { to: { phone_number: '+31612345678' }, options: { language: 'not a tag' } },
        'options.language',
      ],
      ['/check', { to: { phone_number: '+31612345678' }, code: '' }, 'code'],
      ['/check', { to: { phone_number: '+31612345678' } }, 'code'],
      // Arrays where an object is due (`options: []` was taken as no options).
      ['', { to: { phone_number: '+31612345678' }, options: [] }, 'options'],
      ['', { to: [{ phone_number: '+31612345678' }] }, 'to'],
      ['/check', { to: [], code: '123456' }, 'to'],
    ];
    for (const [path, body, param] of cases) {
      const answer = await raw(path, body);
      expect([path, answer.status]).toEqual([path, 422]);
      expect(JSON.stringify(answer.body.error.details)).toContain(param);
    }
    // Valid JSON within the size limit, nested deeper than any stack: a 422, never a 500.
    const deep = await call<RawAnswer>(platform.base, 'POST', '/v1/verify/verifications', {
      token: acme.api_key.secret,
      rawBody: `{"to":{"phone_number":"+31612345678"},"metadata":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.status).toBe(422);
    expect(deep.body.error.details[0].param).toBe('body');
    const emailOnly = await raw('', {
      to: { email: 'a@example.com' },
      options: { channels: ['sms'] },
    });
    expect(emailOnly.status).toBe(422);
    expect(emailOnly.body.error).toMatchObject({ code: 'E01115' });
  });

  it('never lets another workspace see or check a verification', async () => {
    const to = nextPhone();
    await bird.verify.verifications.create({ to: { phone_number: to } });
    const code = await lastSmsCode(to);
    const foreign = await raw('/check', { to: { phone_number: to }, code }, other.api_key.secret);
    expect(foreign.status).toBe(404);
    await expect(
      otherBird.verify.verifications.nextChannel({ to: { phone_number: to } }),
    ).rejects.toBeInstanceOf(BirdNotFoundError);
    expect(
      (await bird.verify.verifications.check({ to: { phone_number: to }, code })).success,
    ).toBe(true);
  });

  it('tells the verification and its attempts as verify.* webhooks in the SDK shapes', async () => {
    const bodies: Array<{ body: string; headers: Record<string, string> }> = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push({
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers as Record<string, string>,
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const endpoint = (await bird.webhooks.create({
        url: `http://127.0.0.1:${port}/verify`,
        events: [
          'verify.verification.created',
          'verify.attempt.sent',
          'verify.attempt.delivered',
          'verify.verification.verified',
        ],
      })) as unknown as { id: string; secret: string };
      const to = nextPhone();
      const created = await bird.verify.verifications.create({
        to: { phone_number: to },
        metadata: { flow: 'hooks' },
      });
      const code = await lastSmsCode(to);
      expect(
        (await bird.verify.verifications.check({ to: { phone_number: to }, code })).success,
      ).toBe(true);
      // Earlier tests' verifications still tell their last events: this one's are counted.
      const events = await eventually(
        () =>
          bodies
            .map((d) => bird.webhooks.unwrap(d.body, d.headers, { secret: endpoint.secret }))
            .filter(
              (event) =>
                (event.data as { verification_id?: string }).verification_id === created.id,
            ),
        (list) => list.length >= 4,
      );
      const byType = new Map(
        events.map((event) => [event.type, event.data as Record<string, unknown>]),
      );
      expect([...byType.keys()].sort()).toEqual([
        'verify.attempt.delivered',
        'verify.attempt.sent',
        'verify.verification.created',
        'verify.verification.verified',
      ]);
      for (const data of byType.values())
        expect(data).toMatchObject({
          verification_id: created.id,
          workspace_id: acme.workspace.id,
          to: { phone_number: to },
          metadata: { flow: 'hooks' },
        });
      expect(byType.get('verify.verification.created')).toMatchObject({
        channel: 'sms',
        status: 'pending',
      });
      expect(byType.get('verify.attempt.sent')).toMatchObject({
        channel: 'sms',
        address: to,
        from: OUR_NUMBER,
      });
      expect(byType.get('verify.attempt.delivered')).toMatchObject({ channel: 'sms', address: to });
      expect(byType.get('verify.verification.verified')).toMatchObject({
        status: 'verified',
        channel: 'sms',
      });
      expect(JSON.stringify(events)).not.toContain(code);
      await bird.webhooks.delete(endpoint.id);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('answers test recipients with the test code and sends them nothing; every other rule holds', async () => {
    const created = await bird.verify.verifications.create({ to: { phone_number: TEST_NUMBER } });
    const wrong = await bird.verify.verifications.check({
      to: { phone_number: TEST_NUMBER },
      code: '000000',
    });
    expect(wrong).toMatchObject({ success: false, reason: 'incorrect_code' });
    const right = await bird.verify.verifications.check({
      to: { phone_number: TEST_NUMBER },
      code: '424242',
    });
    expect(right).toMatchObject({ success: true, verification: { id: created.id } });
    await bird.verify.verifications.create({ to: { email: 'reviewer@example.com' } });
    expect(
      (
        await bird.verify.verifications.check({
          to: { email: 'reviewer@example.com' },
          code: '424242',
        })
      ).success,
    ).toBe(true);
    await sleep(300);
    expect(smsCodes(TEST_NUMBER)).toHaveLength(0);
    expect(sink.messages.filter((m) => m.rcptTo.includes('reviewer@example.com'))).toHaveLength(0);
  });

  it('answers concurrent right codes once: one success, the others find nothing in progress', async () => {
    const to = nextPhone();
    await bird.verify.verifications.create({ to: { phone_number: to } });
    const code = await lastSmsCode(to);
    // Some with their own Idempotency-Key (each its own transaction), some group-committed.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        raw(
          '/check',
          { to: { phone_number: to }, code },
          acme.api_key.secret,
          index % 2 ? { 'idempotency-key': `concurrent-right-${to}-${index}` } : {},
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 200 && a.body.success)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(7);
  });

  it('advances the plan once for concurrent next-channel calls: one passcode on the next channel', async () => {
    const phoneNumber = nextPhone();
    const email = `race.${Date.now()}@example.org`;
    await bird.verify.verifications.create({
      to: { phone_number: phoneNumber, email },
      options: { channels: ['sms', 'email'] },
    });
    await lastSmsCode(phoneNumber);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        raw('/next-channel', { to: { phone_number: phoneNumber, email } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422).map((a) => a.body.error.code)).toEqual(
      Array(4).fill('E01113'),
    );
    await emailCode(email);
    await sleep(300);
    expect(sink.messages.filter((m) => m.rcptTo.includes(email))).toHaveLength(1);
  });

  it('sends one passcode when concurrent next-channel calls fall through a channel that cannot send', async () => {
    const phoneNumber = nextPhone();
    const email = `fallthrough.${Date.now()}@example.org`;
    await bird.verify.verifications.create({
      to: { phone_number: phoneNumber, email },
      options: { channels: ['sms', 'whatsapp', 'email'] },
    });
    await lastSmsCode(phoneNumber);
    // WhatsApp cannot send (no authentication template): the first call falls through to email,
    // outside the lock the others advance under.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        raw('/next-channel', { to: { phone_number: phoneNumber, email } }),
      ),
    );
    expect(answers.every((a) => [200, 422].includes(a.status))).toBe(true);
    await emailCode(email);
    await sleep(500);
    expect(sink.messages.filter((m) => m.rcptTo.includes(email))).toHaveLength(1);
  });
});
