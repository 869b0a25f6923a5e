import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdClient } from '@messagebird/sdk';
import type { WhatsAppMessage } from '@messagebird/sdk';
import { call, createWorkspace, startGraphStandIn } from '@switchboard/testing';
import type { CreatedWorkspace, GraphStandIn } from '@switchboard/testing';
import fc from 'fast-check';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';
import { seedNumber, seedTemplate, setServiceWindow } from './whatsapp-messages.fixtures';
import type { SeededNumber } from './whatsapp-messages.fixtures';

type Answer = WhatsAppMessage & {
  error?: { code: string; message: string; details?: Array<{ param: string }> };
};

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const SETTLED = ['sent', 'delivered', 'failed'];
const APP_SECRET = 'whatsapp-messages-app-secret';

/** The recipient of a Graph send, digits only (Meta takes `+` or not). */
const recipient = (body: unknown) => {
  const to = (body as { to?: unknown } | undefined)?.to;
  return typeof to === 'string' ? to.replace(/\D/g, '') : '';
};

/**
 * WhatsApp messages end to end on the embedded default with the official SDK, against a Graph
 * stand-in (a real HTTP server speaking Meta's API). Numbers and templates are seeded as a
 * connector and a sync leave them; their own specs drive those flows.
 */
describe('WhatsApp messages through the gateway', () => {
  let platform: TestPlatform;
  let graph: GraphStandIn;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let sender: SeededNumber;
  let pending: SeededNumber;
  let elsewhere: SeededNumber;

  const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call<Answer>(platform.base, 'POST', '/v1/whatsapp/messages', {
      token: acme.api_key.secret,
      body,
      headers,
    });
  const settled = (id: string) =>
    eventually(
      () => bird.whatsapp.get(id),
      (message) => SETTLED.includes(message.status),
    );
  const count = async () =>
    (
      await platform.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_messages WHERE workspace_id = $1',
        [acme.workspace.id],
      )
    ).rows[0].n;
  const template = { slug: 'order_update', language: 'en' };
  const components = [{ type: 'body', parameters: [{ type: 'text', text: 'A-1001' }] }];

  beforeAll(async () => {
    graph = await startGraphStandIn();
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_APP_SECRET: APP_SECRET,
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    const ws = acme.workspace.id;
    sender = await seedNumber(platform.db, ws, { phoneNumber: '+31612340000' });
    pending = await seedNumber(platform.db, ws, {
      phoneNumber: '+31612340001',
      status: 'pending',
      account: { id: sender.businessAccountId, waba: sender.waba },
    });
    elsewhere = await seedNumber(platform.db, ws, { phoneNumber: '+31612340002' });
    await seedTemplate(platform.db, ws, sender, { slug: 'order_update' });
    await seedTemplate(platform.db, ws, elsewhere, { slug: 'other_account_only' });
    for (const number of [sender, elsewhere]) {
      graph.addAccount({ wabaId: number.waba });
      graph.addNumber({
        phoneNumberId: number.phoneNumberId,
        wabaId: number.waba,
        displayPhoneNumber: number.phoneNumber,
      });
    }
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await graph?.stop();
  });

  it('accepts a template send with 202 and hands it to Meta once, recording the wamid', async () => {
    const accepted = await bird.whatsapp.send({
      to: '+31655550001',
      from: sender.phoneNumber,
      template: { ...template, components },
      tags: [{ name: 'campaign', value: 'spring' }],
      metadata: { order: 'A-1001' },
    });
    expect(accepted).toMatchObject({
      direction: 'outbound',
      status: 'accepted',
      from: { phone_number: sender.phoneNumber },
      to: { phone_number: '+31655550001' },
      template: { slug: 'order_update', category: 'utility', language: 'en', components },
      tags: [{ name: 'campaign', value: 'spring' }],
      metadata: { order: 'A-1001' },
      sent_at: null,
      delivered_at: null,
      read_at: null,
    });
    expect(accepted.id).toMatch(/^wam_/);
    const done = await settled(accepted.id);
    expect(done.status).toBe('sent');
    expect(done.sent_at).toEqual(expect.any(String));
    const calls = graph
      .sentFrom(sender.phoneNumberId)
      .filter((s) => recipient(s.body) === '31655550001');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'template',
      template: { name: 'order_update', language: { code: 'en' } },
    });
    const stored = await platform.db.query(
      'SELECT provider_message_id FROM sms_whatsapp.whatsapp_messages WHERE id = $1',
      [accepted.id],
    );
    expect(stored.rows[0].provider_message_id).toBe(calls[0].wamid);
    const events = await bird.whatsapp.listEvents(accepted.id);
    expect(events.data.map((event) => event.type)).toEqual(['whatsapp.accepted', 'whatsapp.sent']);
    const sentOnly = await bird.whatsapp.listEvents(accepted.id, { type: 'whatsapp.sent' });
    expect(sentOnly.data).toHaveLength(1);
  });

  it("publishes the message's events as signed webhooks in the SDK's shapes", async () => {
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
        url: `http://127.0.0.1:${port}/whatsapp`,
        events: ['whatsapp.accepted', 'whatsapp.sent', 'whatsapp.failed'],
      })) as unknown as { id: string; secret: string };
      const message = await bird.whatsapp.send({
        to: '+31655550016',
        from: sender.phoneNumber,
        template: { ...template, components },
        tags: [{ name: 'flow', value: 'hooks' }],
        metadata: { order: 'o_1' },
      });
      await settled(message.id);
      const events = await eventually(
        () =>
          Promise.resolve(
            deliveries
              .map((d) => bird.webhooks.unwrap(d.body, d.headers, { secret: endpoint.secret }))
              // An earlier test's event, relayed after the endpoint was created, may come too.
              .filter(
                (event) => 'whatsapp_id' in event.data && event.data.whatsapp_id === message.id,
              ),
          ),
        (list) => list.length >= 2,
      );
      expect(events.map((event) => event.type).sort()).toEqual([
        'whatsapp.accepted',
        'whatsapp.sent',
      ]);
      for (const event of events)
        expect(event.data).toEqual({
          whatsapp_id: message.id,
          workspace_id: acme.workspace.id,
          direction: 'outbound',
          from: { phone_number: sender.phoneNumber },
          to: { phone_number: '+31655550016' },
          tags: [{ name: 'flow', value: 'hooks' }],
          metadata: { order: 'o_1' },
        });
      await bird.webhooks.delete(endpoint.id);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it("applies Meta's statuses once, forward only, whatever order they arrive in", async () => {
    const accepted = await bird.whatsapp.send({
      to: '+31655550013',
      from: sender.phoneNumber,
      template: { ...template, components },
    });
    expect((await settled(accepted.id)).status).toBe('sent');
    const wamid = graph.sent.find((s) => recipient(s.body) === '31655550013')?.wamid ?? '';
    const number = {
      wabaId: sender.waba,
      phoneNumberId: sender.phoneNumberId,
      displayPhoneNumber: sender.phoneNumber.slice(1),
    };
    const status = async (value: string, timestamp: number) => {
      const posted = await graph.postWebhook(
        `${platform.base}/webhooks/whatsapp`,
        graph.statusPayload({
          ...number,
          wamid,
          status: value,
          recipient: '31655550013',
          timestamp,
        }),
        { appSecret: APP_SECRET },
      );
      expect(posted.status).toBe(200);
    };
    const now = Math.floor(Date.now() / 1000);
    // Meta does not keep order, and retries: read first, read again, then a late delivered.
    await status('read', now + 20);
    await status('read', now + 20);
    const read = await eventually(
      () => bird.whatsapp.get(accepted.id),
      (message) => Boolean(message.read_at),
    );
    expect(read).toMatchObject({
      status: 'delivered',
      read_at: new Date((now + 20) * 1000).toISOString(),
      delivered_at: new Date((now + 20) * 1000).toISOString(),
    });
    await status('delivered', now + 10);
    await status('failed', now + 30);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = await bird.whatsapp.get(accepted.id);
    expect(after).toMatchObject({
      status: 'delivered',
      read_at: read.read_at,
      delivered_at: read.delivered_at,
    });
    const events = await bird.whatsapp.listEvents(accepted.id);
    expect(events.data.map((event) => event.type)).toEqual([
      'whatsapp.accepted',
      'whatsapp.sent',
      'whatsapp.delivered',
      'whatsapp.read',
    ]);
  }, 40_000);

  it('applies a status Meta reports before the wamid it names is recorded, once it is', async () => {
    const accepted = await bird.whatsapp.send({
      to: '+31655550017',
      from: sender.phoneNumber,
      template: { ...template, components },
    });
    await settled(accepted.id);
    // As if Meta's webhook overtook the dispatcher's record of Meta's answer.
    const early = `wamid.early${Date.now()}`;
    const posted = await graph.postWebhook(
      `${platform.base}/webhooks/whatsapp`,
      graph.statusPayload({
        wabaId: sender.waba,
        phoneNumberId: sender.phoneNumberId,
        displayPhoneNumber: sender.phoneNumber.slice(1),
        wamid: early,
        status: 'delivered',
        recipient: '31655550017',
      }),
      { appSecret: APP_SECRET },
    );
    expect(posted.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await platform.db.query(
      'UPDATE sms_whatsapp.whatsapp_messages SET provider_message_id = $2 WHERE id = $1',
      [accepted.id, early],
    );
    const delivered = await eventually(
      () => bird.whatsapp.get(accepted.id),
      (message) => message.status === 'delivered',
    );
    expect(delivered.delivered_at).toEqual(expect.any(String));
  }, 30_000);

  it("fails a sent message on Meta's failed status, with Meta's code normalised", async () => {
    const accepted = await bird.whatsapp.send({
      to: '+31655550014',
      from: sender.phoneNumber,
      template: { ...template, components },
    });
    await settled(accepted.id);
    const wamid = graph.sent.find((s) => recipient(s.body) === '31655550014')?.wamid ?? '';
    const posted = await graph.postWebhook(
      `${platform.base}/webhooks/whatsapp`,
      graph.statusPayload({
        wabaId: sender.waba,
        phoneNumberId: sender.phoneNumberId,
        displayPhoneNumber: sender.phoneNumber.slice(1),
        wamid,
        status: 'failed',
        recipient: '31655550014',
        errors: [{ code: 131047, title: 'Re-engagement message', details: 'More than 24 hours' }],
      }),
      { appSecret: APP_SECRET },
    );
    expect(posted.status).toBe(200);
    const failed = await eventually(
      () => bird.whatsapp.get(accepted.id),
      (message) => message.status === 'failed',
    );
    expect(failed.last_error).toMatchObject({
      code: 'service_window_expired',
      meta_error_code: '131047',
      description: 'More than 24 hours',
    });
  });

  it("fails a message Meta refuses, keeping Meta's code", async () => {
    graph.failNext(1, {
      status: 400,
      code: 131026,
      message: 'Message undeliverable',
      when: (c) => recipient(c.body) === '31655550002',
    });
    const accepted = await bird.whatsapp.send({
      to: '+31655550002',
      from: sender.phoneNumber,
      template: { ...template, components },
    });
    const done = await settled(accepted.id);
    expect(done.status).toBe('failed');
    expect(done.last_error).toMatchObject({
      code: 'undeliverable',
      meta_error_code: '131026',
      occurred_at: expect.any(String),
    });
    const events = await bird.whatsapp.listEvents(accepted.id);
    expect(events.data.map((event) => event.type)).toEqual([
      'whatsapp.accepted',
      'whatsapp.failed',
    ]);
    expect(events.data[1].error).toMatchObject({
      code: 'undeliverable',
      meta_error_code: '131026',
    });
  });

  it('retries a temporary failure and sends the message once', async () => {
    graph.failNext(2, {
      status: 500,
      when: (c) => recipient(c.body) === '31655550003',
    });
    const accepted = await bird.whatsapp.send({
      to: '+31655550003',
      from: sender.phoneNumber,
      template: { ...template, components },
    });
    const done = await settled(accepted.id);
    expect(done.status).toBe('sent');
    expect(graph.sent.filter((s) => recipient(s.body) === '31655550003')).toHaveLength(1);
  });

  it('refuses free-form content outside the 24-hour window before storing anything', async () => {
    const before = await count();
    const closed = await send({
      to: '+31655550004',
      from: sender.phoneNumber,
      text: { body: 'Hello there' },
    });
    expect(closed.status).toBe(422);
    expect(closed.body.error?.code).toBe('E01084');
    expect(closed.body.error?.message).toContain('24 hours');
    await setServiceWindow(platform.db, acme.workspace.id, sender, '+31655550004', 25);
    expect(
      (await send({ to: '+31655550004', from: sender.phoneNumber, text: { body: 'Hi' } })).status,
    ).toBe(422);
    expect(await count()).toBe(before);

    await setServiceWindow(platform.db, acme.workspace.id, sender, '+31655550004');
    const open = await bird.whatsapp.send({
      to: '+31655550004',
      from: sender.phoneNumber,
      text: { body: 'Hello there', preview_url: false },
    });
    expect(open).toMatchObject({ status: 'accepted', text: { body: 'Hello there' } });
    expect((await settled(open.id)).status).toBe('sent');
    const body = graph.sent.find((s) => recipient(s.body) === '31655550004')?.body;
    expect(body).toMatchObject({ type: 'text', text: { body: 'Hello there' } });
  });

  it("opens the window with the contact's inbound message, posted by Meta as a webhook", async () => {
    const body = { to: '+31655550015', from: sender.phoneNumber, text: { body: 'Welcome back' } };
    expect((await send(body)).body.error?.code).toBe('E01084');
    const posted = await graph.postWebhook(
      `${platform.base}/webhooks/whatsapp`,
      graph.inboundTextPayload({
        wabaId: sender.waba,
        phoneNumberId: sender.phoneNumberId,
        displayPhoneNumber: sender.phoneNumber.slice(1),
        from: '31655550015',
        text: 'Hi, is my order on its way?',
      }),
      { appSecret: APP_SECRET },
    );
    expect(posted.status).toBe(200);
    const opened = await eventually(
      () => send(body),
      (answer) => answer.status === 202,
    );
    expect(opened.body).toMatchObject({ status: 'accepted', text: { body: 'Welcome back' } });
    expect((await settled(opened.body.id)).status).toBe('sent');
  });

  it('fails free-form content whose window closed before dispatch, without calling Meta', async () => {
    const to = '+31655550005';
    await setServiceWindow(platform.db, acme.workspace.id, sender, to);
    graph.failFor(60_000, {
      status: 503,
      when: (c) => recipient(c.body) === '31655550005',
    });
    const accepted = await bird.whatsapp.send({
      to,
      from: sender.phoneNumber,
      text: { body: 'Late' },
    });
    await graph.waitFor(() => graph.calls.some((c) => recipient(c.body) === '31655550005'));
    // Meta stays away until the dispatcher gave up this try (the client's own retries included);
    // the window closes meanwhile, so the next try must not call Meta at all.
    await setServiceWindow(platform.db, acme.workspace.id, sender, to, 25);
    const done = await eventually(
      () => bird.whatsapp.get(accepted.id),
      (message) => message.status === 'failed',
      40_000,
    );
    graph.clearFailures();
    expect(done.last_error).toMatchObject({
      code: 'service_window_expired',
      meta_error_code: null,
    });
    expect(graph.sent.filter((s) => recipient(s.body) === '31655550005')).toHaveLength(0);
  }, 60_000);

  it('names the sender problems: required, unknown, not connected, another account', async () => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ to: '+31655550006', template }, 'E01080'],
      [{ to: '+31655550006', from: '+31699999999', template }, 'E01081'],
      [{ to: '+31655550006', from: pending.phoneNumber, template }, 'E01082'],
      [
        { to: '+31655550006', from: sender.phoneNumber, template: { slug: 'other_account_only' } },
        'E01083',
      ],
    ];
    for (const [body, code] of cases) {
      const answer = await send(body);
      expect({ status: answer.status, code: answer.body.error?.code }).toEqual({
        status: 422,
        code,
      });
      expect(answer.body.error?.details?.map((d) => d.param)).toContain('from');
    }
    expect(await count()).toBe(before);
  });

  it('quotes a message of the same conversation, and refuses others', async () => {
    const first = await bird.whatsapp.send({
      to: '+31655550007',
      from: sender.phoneNumber,
      template: { ...template, components },
    });
    await settled(first.id);
    const reply = await bird.whatsapp.send({
      to: '+31655550007',
      from: sender.phoneNumber,
      template: { ...template, components },
      in_reply_to_message_id: first.id,
    });
    expect(reply.in_reply_to_message_id).toBe(first.id);
    await settled(reply.id);
    const wamid = graph.sent.find((s) => recipient(s.body) === '31655550007')?.wamid;
    const quoted = graph.sent.filter((s) => recipient(s.body) === '31655550007')[1]?.body;
    expect(quoted).toMatchObject({ context: { message_id: wamid } });

    const unknown = await send({
      to: '+31655550007',
      from: sender.phoneNumber,
      template,
      in_reply_to_message_id: 'wam_doesnotexist',
    });
    expect({ status: unknown.status, code: unknown.body.error?.code }).toEqual({
      status: 404,
      code: 'E04081',
    });
    const otherConversation = await send({
      to: '+31655550008',
      from: sender.phoneNumber,
      template,
      in_reply_to_message_id: first.id,
    });
    expect({ status: otherConversation.status, code: otherConversation.body.error?.code }).toEqual({
      status: 422,
      code: 'E01085',
    });
  });

  it('replays an Idempotency-Key send without storing it twice', async () => {
    const body = {
      to: '+31655550009',
      from: sender.phoneNumber,
      template: { ...template, components },
    };
    const first = await send(body, { 'idempotency-key': 'wa-send/1' });
    const again = await send(body, { 'idempotency-key': 'wa-send/1' });
    expect(first.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    const rows = await platform.db.query(
      `SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_messages WHERE contact_phone = '+31655550009'`,
    );
    expect(rows.rows[0].n).toBe(1);
  });

  it('lists newest first with the SDK filters, and pages by cursor', async () => {
    const tagged = await bird.whatsapp.send({
      to: '+31655550010',
      from: sender.phoneNumber,
      template: { ...template, components },
      tags: [{ name: 'campaign', value: 'autumn' }],
    });
    await settled(tagged.id);
    const all = await bird.whatsapp.list({ limit: 100 });
    const times = all.data.map((message) => message.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await bird.whatsapp.list({ to: '+31655550010' })).data.map((m) => m.id)).toEqual([
      tagged.id,
    ]);
    expect((await bird.whatsapp.list({ phone_number: '+31655550010' })).data).toHaveLength(1);
    expect((await bird.whatsapp.list({ tag: ['campaign:autumn'] })).data.map((m) => m.id)).toEqual([
      tagged.id,
    ]);
    expect(
      (await bird.whatsapp.list({ status: ['failed'] })).data.every((m) => m.status === 'failed'),
    ).toBe(true);
    expect(
      (await bird.whatsapp.list({ from: sender.phoneNumber, direction: 'outbound' })).data.length,
    ).toBeGreaterThan(3);
    // The one inbound message (the window test's): `to` is our number on it, `from` the contact.
    const inbound = (await bird.whatsapp.list({ direction: 'inbound' })).data;
    expect(inbound.map((m) => m.from.phone_number)).toEqual(['+31655550015']);
    expect((await bird.whatsapp.list({ from: '+31655550015' })).data.map((m) => m.id)).toEqual([
      inbound[0].id,
    ]);
    const toUs = await bird.whatsapp.list({ to: sender.phoneNumber });
    expect(toUs.data.map((m) => m.id)).toEqual([inbound[0].id]);
    const withContact = await bird.whatsapp.list({ phone_number: '+31655550015' });
    expect(withContact.data.map((m) => m.direction).sort()).toEqual(['inbound', 'outbound']);
    expect((await bird.whatsapp.list({ category: 'utility' })).data.length).toBeGreaterThan(0);
    expect((await bird.whatsapp.list({ category: 'marketing' })).data).toHaveLength(0);
    expect(
      (await bird.whatsapp.list({ created_before: '2000-01-01T00:00:00Z' })).data,
    ).toHaveLength(0);
    const first = await bird.whatsapp.list({ limit: 2 });
    const second = await bird.whatsapp.list({ limit: 2, starting_after: first.next_cursor ?? '' });
    expect(second.data[0].id).toBe(all.data[2].id);
  });

  it('shows another workspace nothing: 404 on reads, an empty list', async () => {
    const own = (await bird.whatsapp.list({ limit: 1 })).data[0];
    const stranger = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    await expect(stranger.whatsapp.get(own.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'E04080',
    });
    await expect(stranger.whatsapp.listEvents(own.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'E04080',
    });
    expect((await stranger.whatsapp.list({})).data).toHaveLength(0);
    const sendAs = await call<Answer>(platform.base, 'POST', '/v1/whatsapp/messages', {
      token: other.api_key.secret,
      body: { to: '+31655550011', from: sender.phoneNumber, template },
    });
    expect({ status: sendAs.status, code: sendAs.body.error?.code }).toEqual({
      status: 422,
      code: 'E01081',
    });
    const missing = await call<Answer>(
      platform.base,
      'GET',
      '/v1/whatsapp/messages/wam_nothing/events',
      {
        token: acme.api_key.secret,
      },
    );
    expect({ status: missing.status, code: missing.body.error?.code }).toEqual({
      status: 404,
      code: 'E04080',
    });
  });

  it('answers bad inputs with a 4xx, never a 500, and stores nothing', async () => {
    const before = await count();
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            to: fc.oneof(value, fc.constant('+31655550012')),
            from: fc.oneof(value, fc.constant(sender.phoneNumber)),
            template: fc.oneof(
              value,
              fc.record({ slug: value, language: value, components: value }),
            ),
            text: fc.oneof(value, fc.record({ body: value })),
            in_reply_to_message_id: value,
            tags: value,
            metadata: value,
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const answer = await send(body);
          return answer.status >= 400 && answer.status < 500;
        },
      ),
      { numRuns: 60 },
    );
    for (const path of [
      '?status=bogus',
      '?limit=0',
      '?created_after=yesterday',
      '?tag=a:b:c',
      '?category=Bad!',
    ]) {
      const answer = await call(platform.base, 'GET', `/v1/whatsapp/messages${path}`, {
        token: acme.api_key.secret,
      });
      expect(answer.status).toBe(422);
    }
    expect(await count()).toBe(before);
  }, 60_000);
});
