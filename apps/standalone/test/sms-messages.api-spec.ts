import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdClient } from '@messagebird/sdk';
import type { SmsMessage } from '@messagebird/sdk';
import { call, createWorkspace, startTestSmsc } from '@switchboard/testing';
import type { CreatedWorkspace, SmscSubmit, TestSmsc } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

/** Our number (inbound, sender) and recipients whose carrier answers with the named receipt. */
const OUR_NUMBER = '+31612340000';
const RECIPIENT_STAT: Record<string, string> = {
  '31612340001': 'DELIVRD',
  '31612340002': 'EXPIRED',
  '31612340003': 'UNDELIV',
  '31612340004': 'REJECTD',
  '31612340005': 'DELETED',
  '31612340006': 'UNKNOWN',
  '447700900001': 'DELIVRD',
  '447700900003': 'UNDELIV',
};
const EARLY_RECEIPT = '31612340009';
/** Its second part is UNDELIV, the others DELIVRD. */
const MIXED_PARTS = '31612340010';
/** No automatic receipt: the test sends its own. */
const MANUAL_RECEIPTS = '31612340011';
const FINAL = ['delivered', 'undelivered', 'failed', 'expired', 'rejected'];

function receiptFor(submit: SmscSubmit) {
  const to = submit.destination.addr;
  if (to === EARLY_RECEIPT) return { stat: 'DELIVRD', beforeResponse: true };
  if (to === MANUAL_RECEIPTS) return null;
  if (to === MIXED_PARTS)
    return submit.concat?.sequence === 2 ? { stat: 'UNDELIV', err: '027' } : { stat: 'DELIVRD' };
  const stat = RECIPIENT_STAT[to] ?? 'DELIVRD';
  return { stat, err: stat === 'DELIVRD' ? '000' : '0' + String(to.slice(-2)) };
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * SMS messages end to end on the embedded default with the official SDK: two test SMSCs over
 * real SMPP (one answering hex ids and quoting them in decimal in its receipts, the other the
 * reverse), reached through SMPP_URL by destination prefix.
 */
describe('SMS messages through the gateway', () => {
  let platform: TestPlatform;
  let dutch: TestSmsc;
  let british: TestSmsc;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;

  const send = (body: Record<string, unknown>) =>
    call<SmsMessage & { error?: { code: string; details?: Array<{ param: string }> } }>(
      platform.base,
      'POST',
      '/v1/sms/messages',
      { token: acme.api_key.secret, body },
    );
  const final = (id: string) =>
    eventually(
      () => bird.sms.get(id),
      (message) => FINAL.includes(message.status),
    );

  /**
   * A sent message stored again as just accepted (another id, `fields` changed), as a message
   * waiting for its carrier is; its submit job is queued by `queueSubmit`.
   */
  const acceptedCopy = async (id: string, fields: Record<string, string>) => {
    const copy = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
    await platform.db.query(
      `INSERT INTO sms_whatsapp.sms_messages
       SELECT (jsonb_populate_record(NULL::sms_whatsapp.sms_messages, to_jsonb(m)
         || $3::jsonb || jsonb_build_object('id', $1::text, 'status', 'accepted',
              'sent_at', NULL, 'carrier', NULL, 'parts', NULL))).*
       FROM sms_whatsapp.sms_messages m WHERE m.id = $2`,
      [copy, id, JSON.stringify(fields)],
    );
    return copy;
  };
  const queueSubmit = async (id: string) => {
    await platform.db.query(
      `INSERT INTO sms_whatsapp.jobs (queue, payload)
       VALUES ('sms.submit', jsonb_build_object('message_id', $1::text))`,
      [id],
    );
    await platform.db.query(`NOTIFY sms_whatsapp_jobs, 'sms.submit'`);
  };

  beforeAll(async () => {
    [dutch, british] = await Promise.all([
      startTestSmsc({
        messageIds: 'hex',
        receiptIds: 'other',
        receipts: receiptFor,
        urlParams: { prefixes: '31', name: 'nl-carrier', receipt_ids: 'decimal' },
      }),
      startTestSmsc({
        messageIds: 'decimal',
        receiptIds: 'other',
        receipts: receiptFor,
        urlParams: { prefixes: '44', name: 'uk-carrier', receipt_ids: 'hex' },
      }),
    ]);
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      SMPP_URL: `${dutch.url},${british.url}`,
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    // The operator stocks two numbers (one without sms) and registers two sender IDs; Acme
    // orders both numbers.
    const admin = (path: string, body: unknown) =>
      call(platform.base, 'POST', path, { token: platform.adminToken, body });
    for (const [number, capabilities] of [
      [OUR_NUMBER, ['sms', 'voice']],
      ['+31612349999', ['voice']],
    ] as const) {
      expect(
        (await admin('/admin/v1/numbers', { number, number_type: 'mobile', capabilities })).status,
      ).toBe(201);
      expect((await bird.numbers.orders.create({ number })).status).toBe('completed');
    }
    const senders = `/admin/v1/workspaces/${acme.workspace.id}/sms-senders`;
    expect((await admin(senders, { sender: 'Acme' })).status).toBe(201);
    expect(
      (await admin(senders, { sender: 'AcmeOtp', categories: ['authentication'] })).status,
    ).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([dutch?.stop(), british?.stop()]);
  });

  it("delivers the message's events as signed webhooks in the SDK's shapes", async () => {
    const deliveries: Array<{ body: string; headers: Record<string, string> }> = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        deliveries.push({
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
        url: `http://127.0.0.1:${port}/sms`,
        events: ['sms.accepted', 'sms.sent', 'sms.delivered'],
      })) as unknown as { id: string; secret: string };
      const message = await bird.sms.send({
        to: '+31612340001',
        from: 'Acme',
        text: 'Hooked',
        category: 'service',
        tags: [{ name: 'flow', value: 'hooks' }],
        metadata: { order: 'o_1' },
      });
      await final(message.id);
      const events = await eventually(
        () =>
          Promise.resolve(
            deliveries
              .map((d) => bird.webhooks.unwrap(d.body, d.headers, { secret: endpoint.secret }))
              // An earlier test's event, relayed after the endpoint was created, may come too.
              .filter((event) => 'sms_id' in event.data && event.data.sms_id === message.id),
          ),
        (list) => list.length >= 3,
      );
      expect(events.map((event) => event.type).sort()).toEqual([
        'sms.accepted',
        'sms.delivered',
        'sms.sent',
      ]);
      for (const event of events)
        expect(event.data).toMatchObject({
          sms_id: message.id,
          workspace_id: acme.workspace.id,
          to: '+31612340001',
          from: 'Acme',
          tags: [{ name: 'flow', value: 'hooks' }],
          metadata: { order: 'o_1' },
        });
      const accepted = events.find((event) => event.type === 'sms.accepted');
      expect(accepted?.data).toMatchObject({ segments: message.segments });
      await bird.webhooks.delete(endpoint.id);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('sends a long GSM text in parts that the SMSC reassembles to the original, then delivers it', async () => {
    const text = 'Your parcel {ABC} is on its way ~ track it at [link] | thanks! '.repeat(6);
    const message = await bird.sms.send({
      to: '+31612340001',
      from: 'Acme',
      text,
      category: 'transactional',
    });
    expect(message).toMatchObject({
      id: expect.stringMatching(/^sms_/),
      status: 'accepted',
      direction: 'outbound',
      to: '+31612340001',
      from: 'Acme',
      text,
      category: 'transactional',
      segments: { encoding: 'GSM_7BIT', characters: [...text].length },
      options: { smart_encoding: false },
    });
    await dutch.waitFor(() => dutch.messages.some((m) => m.text === text));
    const received = dutch.messages.find((m) => m.text === text);
    expect(received?.parts).toHaveLength(message.segments.count);
    expect(message.segments.count).toBeGreaterThan(2);
    expect(received?.parts[0].source).toEqual({ addr: 'Acme', ton: 5, npi: 0 });
    const done = await final(message.id);
    expect(done).toMatchObject({ status: 'delivered', carrier: expect.any(String) });
    expect(done.delivered_at).toEqual(expect.any(String));
    expect(done.sent_at).toEqual(expect.any(String));
  });

  it.each([
    ['Arabic', 'مرحبا بك في خدمتنا، طلبك قيد التجهيز وسيصل قريبا إن شاء الله. '.repeat(3)],
    ['emoji', 'Party time 🎉🎈🥳 see you there 😀 '.repeat(6)],
  ])('sends a long UCS-2 text (%s) that reassembles to the original', async (_, text) => {
    const message = await bird.sms.send({
      to: '+31612340001',
      from: OUR_NUMBER,
      text,
      category: 'marketing',
    });
    expect(message.segments).toMatchObject({ encoding: 'UCS2', characters: [...text].length });
    await dutch.waitFor(() => dutch.messages.some((m) => m.text === text));
    const received = dutch.messages.find((m) => m.text === text);
    expect(received?.parts).toHaveLength(message.segments.count);
    expect(received?.parts[0].source).toEqual({ addr: '31612340000', ton: 1, npi: 1 });
    expect(received?.parts[0].dataCoding).toBe(8);
  });

  it.each([
    ['+31612340001', 'delivered', null],
    ['+31612340002', 'expired', 'unreachable'],
    ['+31612340003', 'undelivered', 'unreachable'],
    ['+31612340004', 'failed', 'blocked_by_carrier'],
    ['+31612340005', 'failed', 'unknown'],
    ['+31612340006', 'failed', 'unknown'],
    ['+447700900001', 'delivered', null],
    ['+447700900003', 'undelivered', 'unreachable'],
  ])('maps the receipt for %s to %s (hex and decimal ids)', async (to, status, code) => {
    const message = await bird.sms.send({
      to,
      from: 'Acme',
      text: 'Status check',
      category: 'service',
    });
    const done = await final(message.id);
    expect(done.status).toBe(status);
    if (code)
      expect(done.last_error).toMatchObject({ code, carrier_error_code: `0${to.slice(-2)}` });
    else expect(done.last_error ?? null).toBeNull();
  });

  it('applies a receipt that arrives before the submit response', async () => {
    const message = await bird.sms.send({
      to: `+${EARLY_RECEIPT}`,
      from: 'Acme',
      text: 'Early',
      category: 'service',
    });
    expect((await final(message.id)).status).toBe('delivered');
  });

  it.each([
    ['a'.repeat(160), 1, 'GSM_7BIT'],
    ['a'.repeat(161), 2, 'GSM_7BIT'],
    ['€'.repeat(80), 1, 'GSM_7BIT'],
    ['€'.repeat(81), 2, 'GSM_7BIT'],
    ['ŵ'.repeat(70), 1, 'UCS2'],
    ['ŵ'.repeat(71), 2, 'UCS2'],
    ['😀'.repeat(35), 1, 'UCS2'],
    ['😀'.repeat(36), 2, 'UCS2'],
  ])(
    'counts segments as the SDK says (%#), and sends that many parts',
    async (text, count, encoding) => {
      const message = await bird.sms.send({
        to: '+31612340001',
        from: 'Acme',
        text,
        category: 'service',
      });
      expect(message.segments).toEqual({ count, encoding, characters: [...text].length });
      await dutch.waitFor(() => dutch.messages.some((m) => m.text === text));
      expect(dutch.messages.find((m) => m.text === text)?.parts).toHaveLength(count);
    },
  );

  it('makes a message of several parts final when every part is, the worst part winning', async () => {
    const text = 'Part of a longer story. '.repeat(20);
    const message = await bird.sms.send({
      to: `+${MIXED_PARTS}`,
      from: 'Acme',
      text,
      category: 'service',
    });
    expect(message.segments.count).toBe(4);
    const done = await final(message.id);
    expect(done.status).toBe('undelivered');
    expect(done.last_error).toMatchObject({ code: 'unreachable', carrier_error_code: '027' });
  });

  it('records ACCEPTD and ENROUTE as timeline steps, then the final receipt', async () => {
    const message = await bird.sms.send({
      to: `+${MANUAL_RECEIPTS}`,
      from: 'Acme',
      text: 'Steps',
      category: 'service',
    });
    await dutch.waitFor(() => dutch.submits.some((s) => s.text === 'Steps'));
    const submit = dutch.submits.find((s) => s.text === 'Steps') as SmscSubmit;
    await eventually(
      () => bird.sms.get(message.id),
      (m) => m.status === 'sent',
    );
    await dutch.sendReceipt(submit, { stat: 'ACCEPTD' });
    await dutch.sendReceipt(submit, { stat: 'ENROUTE' });
    const steps = await eventually(
      () => bird.sms.listEvents(message.id),
      (events) => events.data.length >= 4,
    );
    expect(steps.data.map((e) => e.type)).toEqual([
      'sms.accepted',
      'sms.sent',
      'sms.carrier_accepted',
      'sms.enroute',
    ]);
    expect((await bird.sms.get(message.id)).status).toBe('sent');
    await dutch.sendReceipt(submit, { stat: 'DELIVRD' });
    expect((await final(message.id)).status).toBe('delivered');
    // A second final receipt for the same part changes nothing, nor does a late step.
    await dutch.sendReceipt(submit, { stat: 'UNDELIV' });
    await dutch.sendReceipt(submit, { stat: 'ENROUTE' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await bird.sms.get(message.id)).status).toBe('delivered');
    expect((await bird.sms.listEvents(message.id)).data.map((e) => e.type)).toEqual([
      'sms.accepted',
      'sms.sent',
      'sms.carrier_accepted',
      'sms.enroute',
      'sms.delivered',
    ]);
  });

  it('keeps messages accepted while their carrier is down and sends them once it is back', async () => {
    await british.stop();
    const message = await bird.sms.send({
      to: '+447700900001',
      from: 'Acme',
      text: 'Waiting',
      category: 'service',
    });
    // More waiting for the carrier that is away than both windows together: the other carrier's
    // messages still go at once.
    const waiting = await bird.sms.sendBatch({
      messages: Array.from({ length: 25 }, (_, n) => ({
        to: `+4477009001${String(n).padStart(2, '0')}`,
        from: 'Acme',
        text: `Waiting ${n}`,
        category: 'service' as const,
      })),
    });
    const meanwhile = await bird.sms.send({
      to: '+31612340077',
      from: 'Acme',
      text: 'Not waiting',
      category: 'service',
    });
    await eventually(
      () => bird.sms.get(meanwhile.id),
      (m) => m.status !== 'accepted',
      5_000,
    );
    expect((await bird.sms.get(message.id)).status).toBe('accepted');
    await british.restart();
    const done = await eventually(
      () => bird.sms.get(message.id),
      (m) => FINAL.includes(m.status),
      60_000,
    );
    expect(done.status).toBe('delivered');
    for (const { id } of waiting.data)
      await eventually(
        () => bird.sms.get(id),
        (m) => FINAL.includes(m.status),
        60_000,
      );
  }, 90_000);

  it('fails a message the carrier refuses for good, with its code and command_status', async () => {
    british.throttleNext(1, 0x0b);
    const message = await bird.sms.send({
      to: '+447700900001',
      from: 'Acme',
      text: 'Refused',
      category: 'service',
    });
    const done = await final(message.id);
    expect(done).toMatchObject({
      status: 'failed',
      last_error: { code: 'invalid_destination', carrier_error_code: '0x0000000b' },
    });
    const events = await bird.sms.listEvents(message.id);
    expect(events.data.map((e) => e.type)).toEqual(['sms.accepted', 'sms.failed']);
    // The SDK names the carrier only on sent and delivered events.
    expect(events.data[1]).not.toHaveProperty('carrier');
    expect(events.data[1].error).toEqual(expect.objectContaining({ code: 'invalid_destination' }));
    // Nor in what webhook subscribers receive.
    const { rows } = await platform.db.query<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM sms_whatsapp.outbox WHERE type = 'sms.failed' AND payload::text LIKE $1`,
      [`%${message.id}%`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].payload.data).not.toHaveProperty('carrier');
    expect(rows[0].payload.data).toHaveProperty('error');
  });

  it('keeps one concatenation reference across the tries of a message partly taken', async () => {
    // The first part is refused as a temporary fault (ESME_RSYSERR), the second taken: the whole
    // message is tried again, and its parts must reassemble with the one already out.
    dutch.throttleNext(1, 0x08);
    const message = await bird.sms.send({
      to: '+31612340099',
      from: 'Acme',
      text: 'Two parts. '.repeat(16),
      category: 'service',
    });
    expect(message.segments.count).toBe(2);
    expect((await final(message.id)).status).toBe('delivered');
    const parts = dutch.submits.filter((s) => s.destination.addr === '31612340099');
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(parts.map((part) => part.concat?.reference)).size).toBe(1);
  });

  it('sends once per Idempotency-Key, replaying the first answer', async () => {
    const body = { to: '+31612340001', from: 'Acme', text: 'Once only', category: 'service' };
    const headers = { 'idempotency-key': 'sms-once-1' };
    const first = await call<SmsMessage>(platform.base, 'POST', '/v1/sms/messages', {
      token: acme.api_key.secret,
      body,
      headers,
    });
    const again = await call<SmsMessage>(platform.base, 'POST', '/v1/sms/messages', {
      token: acme.api_key.secret,
      body,
      headers,
    });
    expect(first.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    const stored = await platform.db.query(
      `SELECT count(*)::int AS n FROM sms_whatsapp.sms_messages WHERE text = 'Once only'`,
    );
    expect(stored.rows[0].n).toBe(1);
  });

  it('records the timeline oldest first, with a type filter', async () => {
    const message = await bird.sms.send({
      to: '+31612340001',
      from: 'Acme',
      text: 'Timeline',
      category: 'service',
    });
    await final(message.id);
    const events = await bird.sms.listEvents(message.id);
    expect(events.data.map((event) => event.type)).toEqual([
      'sms.accepted',
      'sms.sent',
      'sms.delivered',
    ]);
    expect(events.data[1].carrier).toEqual(expect.any(String));
    const delivered = await bird.sms.listEvents(message.id, { type: 'sms.delivered' });
    expect(delivered.data).toHaveLength(1);
  });

  it('reads an authentication body back as **REDACTED** while the recipient gets it', async () => {
    const text = 'Your code is 482913';
    const message = await bird.sms.send({
      to: '+31612340001',
      from: 'AcmeOtp',
      text,
      category: 'authentication',
    });
    expect(message.text).toBe('**REDACTED**');
    expect((await bird.sms.get(message.id)).text).toBe('**REDACTED**');
    await dutch.waitFor(() => dutch.messages.some((m) => m.text === text));
    // Written as free text, the code is kept only until the carrier has it.
    await final(message.id);
    const stored = await platform.db.query(
      `SELECT text, redacted_text FROM sms_whatsapp.sms_messages WHERE id = $1`,
      [message.id],
    );
    expect(stored.rows).toEqual([{ text: '**REDACTED**', redacted_text: null }]);
  });

  it('sends a template from the workspace number, its category from the template', async () => {
    const message = await bird.sms.send({
      to: '+31612340001',
      template: { slug: 'bird_otp_verification', language: 'nl', parameters: { code: '482913' } },
    });
    expect(message).toMatchObject({
      status: 'accepted',
      from: OUR_NUMBER,
      category: 'authentication',
      text: '**REDACTED**',
    });
    const sent = 'Je verificatiecode is 482913. Deel deze code nooit met iemand.';
    await dutch.waitFor(() => dutch.messages.some((m) => m.text === sent));
  });

  it('refuses template sends naming their problems with SMSTemplateInvalid', async () => {
    const unknown = await send({ to: '+31612340001', template: { slug: 'no_such_template' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error?.code).toBe('E01026');
    const missing = await send({ to: '+31612340001', template: { slug: 'bird_otp_verification' } });
    expect(missing.body.error?.code).toBe('E01026');
    expect(missing.body.error?.details?.map((d) => d.param)).toEqual(['template.parameters.code']);
    const withFrom = await send({
      to: '+31612340001',
      from: 'Acme',
      template: { slug: 'bird_otp_verification', parameters: { code: '1234' } },
    });
    expect(withFrom.status).toBe(422);
    expect(withFrom.body.error?.details?.map((d) => d.param)).toEqual(['from']);
  });

  it('accepts a batch whole, in order, and refuses it whole when one item is invalid', async () => {
    const before = await platform.db.query(
      'SELECT count(*)::int AS n FROM sms_whatsapp.sms_messages',
    );
    const bad = await call<{ error: { code: string; details: Array<{ param: string }> } }>(
      platform.base,
      'POST',
      '/v1/sms/batches',
      {
        token: acme.api_key.secret,
        body: {
          messages: [
            { to: '+31612340001', from: 'Acme', text: 'one', category: 'service' },
            { to: 'nope', from: 'Acme', text: 'two', category: 'service' },
          ],
        },
      },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d) => d.param)).toEqual(['messages[1].to']);
    const after = await platform.db.query(
      'SELECT count(*)::int AS n FROM sms_whatsapp.sms_messages',
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const tooMany = await call<{ error: { code: string } }>(
      platform.base,
      'POST',
      '/v1/sms/batches',
      {
        token: acme.api_key.secret,
        body: {
          messages: Array.from({ length: 101 }, () => ({
            to: '+31612340001',
            from: 'Acme',
            text: 'x',
            category: 'service',
          })),
        },
      },
    );
    expect(tooMany.status).toBe(422);
    const batch = await bird.sms.sendBatch({
      messages: ['a', 'b', 'c'].map((text) => ({
        to: '+31612340001',
        from: 'Acme',
        text,
        category: 'service' as const,
      })),
    });
    expect(batch.summary).toEqual({ accepted_count: 3 });
    expect(batch.data.map((m) => m.text)).toEqual(['a', 'b', 'c']);
  });

  it('refuses preview fields with SMSUnsupportedFeature, naming each', async () => {
    const response = await send({
      to: '+31612340001',
      from: 'Acme',
      text: 'hi',
      category: 'service',
      scheduled_at: '2030-01-01T00:00:00Z',
      campaign_id: 'cmp_1',
      options: { track_clicks: true },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'E01024' });
    expect(response.body.error?.details?.map((d) => d.param).sort()).toEqual([
      'campaign_id',
      'options.track_clicks',
      'scheduled_at',
    ]);
  });

  it('refuses senders the workspace does not hold, and categories a sender’s registration does not cover', async () => {
    const base = { to: '+31612340001', text: 'hi', category: 'service' };
    expect((await send({ ...base, from: 'Stranger' })).body.error?.code).toBe('E01027');
    // Both carriers here route by prefix (31, 44): a German number has none.
    const unroutable = await send({ ...base, from: 'Acme', to: '+4915112345678' });
    expect(unroutable.body.error).toMatchObject({ code: 'E01023', details: [{ param: 'to' }] });
    // Too short for any country, and a US number without its country code (read as Swiss).
    for (const to of ['+12345', '4155550100']) {
      const impossible = await send({ ...base, from: 'Acme', to });
      expect({ to, status: impossible.status, error: impossible.body.error }).toMatchObject({
        to,
        status: 422,
        error: { code: 'E01023', details: [{ param: 'to' }] },
      });
    }
    // Held, but without the sms capability.
    expect((await send({ ...base, from: '+31612349999' })).body.error?.code).toBe('E01027');
    expect((await send({ ...base, from: 'AcmeOtp', category: 'marketing' })).body.error?.code).toBe(
      'E01028',
    );
    // Registered for authentication: it covers service and transactional too, not marketing.
    expect((await send({ ...base, from: 'AcmeOtp' })).status).toBe(202);
    expect(
      (await send({ to: '+31612340001', text: 'hi', category: 'service' })).body.error?.code,
    ).toBe('E01022');
    expect((await send({ ...base, from: 'Acme', text: 'x'.repeat(1837) })).body.error?.code).toBe(
      'E01025',
    );
  });

  it('rejects a message still waiting for its carrier when its pair opts out meanwhile', async () => {
    const sent = await bird.sms.send({
      to: '+31612340009',
      from: 'Acme',
      text: 'Before the stop',
      category: 'marketing',
    });
    await dutch.waitFor(() => dutch.messages.some((m) => m.text === 'Before the stop'));
    // The same message accepted again, its submit job waiting (as in a carrier outage), and
    // the recipient's STOP recorded before the job runs.
    const waiting = await acceptedCopy(sent.id, { text: 'After the stop' });
    await platform.db.query(
      `INSERT INTO sms_whatsapp.sms_suppressions (id, workspace_id, destination, originator, reason,
         origin, effective_at, last_asserted_at)
       VALUES ('sms_sup_waiting', $1, '+31612340009', 'Acme', 'manual', 'api_key', now(), now())`,
      [acme.workspace.id],
    );
    await queueSubmit(waiting);
    const rejected = await eventually(
      () => bird.sms.get(waiting),
      (message) => message.status !== 'accepted',
    );
    expect(rejected.status).toBe('rejected');
    expect(rejected.last_error).toMatchObject({ code: 'recipient_opted_out' });
    const events = await bird.sms.listEvents(waiting);
    expect(events.data.map((event) => event.type)).toContain('sms.rejected');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(dutch.messages.some((m) => m.text === 'After the stop')).toBe(false);
  });

  it('rejects a waiting message whose sender the workspace no longer holds, never submitting it', async () => {
    const sent = await bird.sms.send({
      to: '+31612340010',
      from: 'Acme',
      text: 'From a sender still held',
      category: 'service',
    });
    await dutch.waitFor(() => dutch.messages.some((m) => m.text === 'From a sender still held'));
    // The same message accepted again from a sender ID removed since (as within the two
    // seconds a sender found held is remembered), its submit job then run.
    const orphan = await acceptedCopy(sent.id, {
      from_address: 'Removed',
      text: 'From a removed sender',
    });
    await queueSubmit(orphan);
    const rejected = await eventually(
      () => bird.sms.get(orphan),
      (message) => message.status !== 'accepted',
    );
    expect(rejected).toMatchObject({
      status: 'rejected',
      last_error: { code: 'sender_unregistered' },
    });
    expect(dutch.messages.some((m) => m.text === 'From a removed sender')).toBe(false);
  });

  it('stores a send to an opted-out pair as rejected, never submitted', async () => {
    await platform.db.query(
      `INSERT INTO sms_whatsapp.sms_suppressions (id, workspace_id, destination, originator, reason,
         origin, effective_at, last_asserted_at)
       VALUES ('sms_sup_1', $1, '+31612340008', 'Acme', 'manual', 'api_key', now(), now())`,
      [acme.workspace.id],
    );
    const message = await bird.sms.send({
      to: '+31612340008',
      from: 'Acme',
      text: 'Blocked',
      category: 'marketing',
    });
    expect(message.status).toBe('rejected');
    expect(message.last_error).toMatchObject({ code: 'recipient_opted_out' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(dutch.messages.some((m) => m.text === 'Blocked')).toBe(false);
    const listed = await bird.sms.list({ error_code: ['recipient_opted_out'] });
    expect(listed.data.map((m) => m.id)).toContain(message.id);
  });

  it('lists with filters and keyset cursors', async () => {
    const tagged = [];
    for (const variant of ['a', 'b', 'c'])
      tagged.push(
        await bird.sms.send({
          to: '+31612340007',
          from: 'Acme',
          text: `Tagged ${variant}`,
          category: 'marketing',
          tags: [
            { name: 'campaign', value: 'spring' },
            { name: 'variant', value: variant },
          ],
        }),
      );
    const byTo = await bird.sms.list({ to: '+31612340007' });
    expect(byTo.data.map((m) => m.id)).toEqual(tagged.map((m) => m.id).reverse());
    const byTags = await bird.sms.list({ tag: ['campaign:spring', 'variant:b'] });
    expect(byTags.data.map((m) => m.id)).toEqual([tagged[1].id]);
    const byName = await bird.sms.list({
      tag: ['variant'],
      category: 'marketing',
      direction: 'outbound',
    });
    expect(byName.data).toHaveLength(3);
    const first = await bird.sms.list({ to: '+31612340007', limit: 2 });
    expect(first.data.map((m) => m.id)).toEqual([tagged[2].id, tagged[1].id]);
    const second = await bird.sms.list({
      to: '+31612340007',
      limit: 2,
      starting_after: first.next_cursor as string,
    });
    expect(second.data.map((m) => m.id)).toEqual([tagged[0].id]);
    expect(second.next_cursor).toBeNull();
    const back = await bird.sms.list({
      to: '+31612340007',
      limit: 2,
      ending_before: second.prev_cursor as string,
    });
    expect(back.data.map((m) => m.id)).toEqual(first.data.map((m) => m.id));
    const walked: string[] = [];
    for await (const message of bird.sms.list({ to: '+31612340007', limit: 1 }))
      walked.push(message.id);
    expect(walked).toEqual(tagged.map((m) => m.id).reverse());
    const statuses = await bird.sms.list({ status: ['delivered', 'failed'] });
    expect(statuses.data.every((m) => ['delivered', 'failed'].includes(m.status))).toBe(true);
    // Before the 30-day retention: raised to the bound, not refused.
    const old = await bird.sms.list({ created_after: '2000-01-01T00:00:00Z', to: '+31612340007' });
    expect(old.data).toHaveLength(3);
    const future = await bird.sms.list({ created_before: '2000-01-01T00:00:00Z' });
    expect(future.data).toHaveLength(0);
  });

  it('answers a message past its 30 days 404, with its timeline', async () => {
    const message = await bird.sms.send({
      to: '+31612340001',
      from: 'Acme',
      text: 'Kept a month',
      category: 'service',
    });
    await final(message.id);
    await platform.db.query(
      `UPDATE sms_whatsapp.sms_messages SET created_at = now() - interval '32 days' WHERE id = $1`,
      [message.id],
    );
    for (const path of [message.id, `${message.id}/events`]) {
      const gone = await call<{ error: { code: string } }>(
        platform.base,
        'GET',
        `/v1/sms/messages/${path}`,
        { token: acme.api_key.secret },
      );
      expect({ path, status: gone.status, code: gone.body.error?.code }).toEqual({
        path,
        status: 404,
        code: 'E04059',
      });
    }
  });

  it('stores an inbound message for the workspace holding the number, listed as received', async () => {
    await dutch.sendInbound({
      from: '31655555555',
      to: OUR_NUMBER.slice(1),
      text: 'Hello from a phone',
    });
    const inbound = await eventually(
      () => bird.sms.list({ direction: 'inbound' }),
      (page) => page.data.length > 0,
    );
    expect(inbound.data[0]).toMatchObject({
      direction: 'inbound',
      status: 'received',
      from: '+31655555555',
      to: OUR_NUMBER,
      text: 'Hello from a phone',
      category: null,
    });
    const events = await bird.sms.listEvents(inbound.data[0].id);
    expect(events.data.map((e) => e.type)).toEqual(['sms.received']);
    // The webhook names the carrier it came in over (the SDK's EventSmsReceivedData).
    const { rows } = await platform.db.query<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM sms_whatsapp.outbox WHERE type = 'sms.received' AND payload::text LIKE $1`,
      [`%${inbound.data[0].id}%`],
    );
    expect(rows[0].payload.data).toMatchObject({
      text: 'Hello from a phone',
      carrier: 'nl-carrier',
    });
  });

  it("routes a short code held in two countries by the sender's country, and nowhere from a third", async () => {
    const stockShortCode = async (number: string, country: string, holder?: CreatedWorkspace) => {
      const stocked = await call(platform.base, 'POST', '/admin/v1/numbers', {
        token: platform.adminToken,
        body: {
          number,
          number_type: 'short_code',
          country_code: country,
          capabilities: ['sms'],
          ...(holder ? { kind: 'shared', workspace_id: holder.workspace.id } : {}),
        },
      });
      expect(stocked.status).toBe(201);
    };
    const inboundAt = (workspace: CreatedWorkspace, to: string) =>
      eventually(
        async () =>
          (
            await call<{ data: Array<{ from: string; text: string }> }>(
              platform.base,
              'GET',
              `/v1/sms/messages?direction=inbound&to=${to}`,
              { token: workspace.api_key.secret },
            )
          ).body.data.map(({ from, text }) => [from, text]),
        (data) => data.length > 0,
      );
    const unroutable = (text: string) =>
      eventually(
        async () =>
          (
            await platform.db.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM sms_whatsapp.sms_unroutable_inbound WHERE text = $1',
              [text],
            )
          ).rows[0].n,
        (n) => n > 0,
      );
    // The same digits are a Dutch short code of Acme's and a British one of another workspace's.
    const brit = await createWorkspace(platform.base, platform.adminToken, { name: 'Brit' });
    await stockShortCode('77077', 'NL', acme);
    await stockShortCode('77077', 'GB', brit);
    await dutch.sendInbound({ from: '31655555501', to: '77077', text: 'From Amsterdam' });
    await dutch.sendInbound({ from: '447700900501', to: '77077', text: 'From London' });
    await dutch.sendInbound({ from: '33612345501', to: '77077', text: 'From Paris' });
    expect(await inboundAt(acme, '77077')).toEqual([['+31655555501', 'From Amsterdam']]);
    expect(await inboundAt(brit, '77077')).toEqual([['+447700900501', 'From London']]);
    expect(await unroutable('From Paris')).toBe(1);
    // Stocked in two countries but held in one: a sender from the other reaches nobody.
    await stockShortCode('77088', 'NL', acme);
    await stockShortCode('77088', 'GB');
    await dutch.sendInbound({ from: '447700900502', to: '77088', text: 'From Leeds' });
    await dutch.sendInbound({ from: '31655555502', to: '77088', text: 'From Utrecht' });
    expect(await inboundAt(acme, '77088')).toEqual([['+31655555502', 'From Utrecht']]);
    expect(await unroutable('From Leeds')).toBe(1);
  });

  it('records a long inbound message once, its parts sent one at a time or all at once', async () => {
    const long = (n: number) => `Part of a long reply number ${n}, `.repeat(8);
    await dutch.sendInbound({
      from: '31655550321',
      to: OUR_NUMBER.slice(1),
      text: long(1),
      oneAtATime: true,
    });
    await dutch.sendInbound({ from: '31655550321', to: OUR_NUMBER.slice(1), text: long(2) });
    const received = await eventually(
      () => bird.sms.list({ direction: 'inbound', from: '+31655550321' }),
      (page) => page.data.length >= 2,
    );
    expect(received.data.map((m) => m.text).sort()).toEqual([long(1), long(2)]);
    const left = await platform.db.query(
      `SELECT count(*)::int AS n FROM sms_whatsapp.sms_inbound_parts WHERE from_address = '+31655550321'`,
    );
    expect(left.rows[0].n).toBe(0);
  });

  it('applies the keyword rules to inbound messages: STOP is confirmed and suppresses the pair (nothing reaches a carrier), START restores it', async () => {
    await dutch.sendInbound({ from: '31655550001', to: OUR_NUMBER.slice(1), text: 'STOP' });
    await dutch.waitFor(() => dutch.messages.some((m) => m.to === '31655550001'));
    const reply = dutch.messages.find((m) => m.to === '31655550001');
    expect(reply?.from).toBe(OUR_NUMBER.slice(1));
    const replies = await bird.sms.list({ to: '+31655550001', direction: 'outbound' });
    expect(replies.data[0]).toMatchObject({ category: 'service', from: OUR_NUMBER });
    const blocked = await bird.sms.send({
      to: '+31655550001',
      from: OUR_NUMBER,
      text: 'Spring sale',
      category: 'marketing',
    });
    expect(blocked).toMatchObject({
      status: 'rejected',
      last_error: { code: 'recipient_opted_out' },
    });
    const events = await bird.sms.listEvents(blocked.id);
    expect(events.data.map((e) => e.type)).toEqual(['sms.accepted', 'sms.rejected']);

    // START ends the opt-out: the confirmation, then the pair is sendable again.
    const repliesSent = () => dutch.messages.filter((m) => m.to === '31655550001').length;
    await dutch.sendInbound({ from: '31655550001', to: OUR_NUMBER.slice(1), text: 'START' });
    await dutch.waitFor(() => repliesSent() >= 2);
    // The START also reaches the preference ledger, whose grant replaces the STOP's revocation in
    // this service's projection once its event is back (ADR 14): until then sends stay refused.
    await eventually(
      async () =>
        (
          await platform.db.query<{ status: string }>(
            `SELECT status FROM sms_whatsapp.preference_states
             WHERE workspace_id = $1 AND channel = 'sms' AND handle = '+31655550001'
               AND sender_scope = $2`,
            [acme.workspace.id, OUR_NUMBER],
          )
        ).rows[0]?.status,
      (status) => status === 'granted',
    );
    const allowed = await bird.sms.send({
      to: '+31655550001',
      from: OUR_NUMBER,
      text: 'Back on the list',
      category: 'marketing',
    });
    expect(allowed.status).toBe('accepted');
    await dutch.waitFor(() => dutch.messages.some((m) => m.text === 'Back on the list'));
    // The refused one never reached a carrier.
    expect([...dutch.messages, ...british.messages].some((m) => m.text === 'Spring sale')).toBe(
      false,
    );
  });

  it("replies to a keyword through the carrier the message came in on, not the texter's prefix", async () => {
    // A British handset texts our Dutch number through the Dutch carrier; 44 routes to the British.
    const britishBefore = british.submits.length;
    await dutch.sendInbound({ from: '447700900555', to: OUR_NUMBER.slice(1), text: 'HELP' });
    await dutch.waitFor(() => dutch.submits.some((s) => s.destination.addr === '447700900555'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      british.submits.slice(britishBefore).filter((s) => s.destination.addr === '447700900555'),
    ).toEqual([]);
    const [reply] = (await bird.sms.list({ to: '+447700900555' })).data;
    expect(reply).toMatchObject({ direction: 'outbound', from: OUR_NUMBER, carrier: 'nl-carrier' });
  });

  it('routes an inbound STOP to a short code the workspace holds, and stores text with NUL and half a surrogate pair', async () => {
    const stocked = await call(platform.base, 'POST', '/admin/v1/numbers', {
      token: platform.adminToken,
      body: {
        number: '3434',
        country_code: 'NL',
        number_type: 'short_code',
        capabilities: ['sms'],
      },
    });
    expect(stocked.status).toBe(201);
    expect((await bird.numbers.orders.create({ number: '3434' })).status).toBe('completed');
    await dutch.sendInbound({ from: '31655550077', to: '3434', text: 'STOP' });
    await dutch.waitFor(() => dutch.messages.some((m) => m.to === '31655550077'));
    const reply = dutch.submits.find((submit) => submit.destination.addr === '31655550077');
    // A short code goes out as itself (network specific), not as an international number.
    expect(reply?.source).toEqual({ addr: '3434', ton: 3, npi: 0 });
    const suppressions = await bird.smsSuppressions.list({ destination: '+31655550077' });
    expect(suppressions.data).toEqual([
      expect.objectContaining({ originator: '3434', reason: 'keyword_stop' }),
    ]);
    // The `to` filter finds a message received on a short code by the code as held.
    const received = await bird.sms.list({ direction: 'inbound', to: '3434' });
    expect(received.data).toEqual([expect.objectContaining({ to: '3434', text: 'STOP' })]);

    await dutch.sendInbound({
      from: '31655550078',
      to: OUR_NUMBER.slice(1),
      text: 'nul\u0000 and \ud83d half',
    });
    const stored = await eventually(
      () => bird.sms.list({ direction: 'inbound', from: '+31655550078' }),
      (page) => page.data.length > 0,
    );
    expect(stored.data[0].text).toBe('nul and \ufffd half');
  });

  it('acknowledges an inbound message to a number nobody holds, storing it for nobody', async () => {
    const before = dutch.deliverResponses.length;
    await dutch.sendInbound({ from: '31655555556', to: '31612347777', text: 'Anyone there?' });
    const inboundAnswers = () =>
      dutch.deliverResponses.slice(before).filter((answer) => answer.kind === 'inbound');
    await dutch.waitFor(() => inboundAnswers().length > 0);
    expect(inboundAnswers()).toEqual([expect.objectContaining({ status: 0 })]);
    const stored = await platform.db.query(
      `SELECT to_address FROM sms_whatsapp.sms_unroutable_inbound WHERE text = 'Anyone there?'`,
    );
    expect(stored.rows).toEqual([{ to_address: '+31612347777' }]);
    const listed = await bird.sms.list({ direction: 'inbound', from: '+31655555556' });
    expect(listed.data).toEqual([]);
  });

  it('shows another workspace nothing', async () => {
    const message = await bird.sms.send({
      to: '+31612340001',
      from: 'Acme',
      text: 'Mine',
      category: 'service',
    });
    const token = other.api_key.secret;
    const get = await call<{ error: { code: string } }>(
      platform.base,
      'GET',
      `/v1/sms/messages/${message.id}`,
      { token },
    );
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('E04059');
    const events = await call(platform.base, 'GET', `/v1/sms/messages/${message.id}/events`, {
      token,
    });
    expect(events.status).toBe(404);
    const list = await call<{ data: unknown[] }>(platform.base, 'GET', '/v1/sms/messages', {
      token,
    });
    expect(list.body.data).toEqual([]);
    // Nor may it send from Acme's senders.
    const sent = await call<{ error: { code: string } }>(
      platform.base,
      'POST',
      '/v1/sms/messages',
      {
        token,
        body: { to: '+31612340001', from: 'Acme', text: 'x', category: 'service' },
      },
    );
    expect(sent.body.error.code).toBe('E01027');
  });
});

describe('SMS sends without a carrier', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'off' });
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('answers 503 E05006 naming SMPP_URL and stores nothing', async () => {
    const acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    const response = await call<{ error: { code: string; type: string; message: string } }>(
      platform.base,
      'POST',
      '/v1/sms/messages',
      {
        token: acme.api_key.secret,
        body: { to: '+31612340001', from: 'Acme', text: 'hi', category: 'service' },
      },
    );
    expect(response.status).toBe(503);
    expect(response.body.error).toMatchObject({
      code: 'E05006',
      type: 'service_unavailable_error',
    });
    expect(response.body.error.message).toContain('SMPP_URL');
    const stored = await platform.db.query(
      'SELECT count(*)::int AS n FROM sms_whatsapp.sms_messages',
    );
    expect(stored.rows[0].n).toBe(0);
  });
});
