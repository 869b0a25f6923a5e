import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdAuthError, BirdClient } from '@messagebird/sdk';
import { BirdRealtime } from '@messagebird/realtime';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import { Client } from 'pg';
import {
  call,
  createWorkspace,
  startGraphStandIn,
  startSmtpSink,
  startTestSmsc,
  waitForOk,
} from '@switchboard/testing';
import type { GraphStandIn, SmtpSink, TestSmsc } from '@switchboard/testing';
import { SmsSubjects } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { startDistributedTopology } from './distributed-topology';
import type { DistributedTopology } from './distributed-topology';

const waitUntil = async (check: () => boolean, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('distributed topology (one process per service, real NATS and PostgreSQL)', () => {
  let topology: DistributedTopology;
  let sink: SmtpSink;
  let smsc: TestSmsc;
  let graph: GraphStandIn;
  const WHATSAPP_APP_SECRET = 'distributed-app-secret';

  beforeAll(async () => {
    sink = await startSmtpSink();
    smsc = await startTestSmsc({ receipts: () => ({ stat: 'DELIVRD', delayMs: 50 }) });
    graph = await startGraphStandIn();
    topology = await startDistributedTopology({
      SMTP_RELAY_URL: sink.url,
      SMPP_URL: smsc.url,
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_APP_SECRET,
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      // A SIGKILLed realtime process is taken as gone after this long.
      REALTIME_PEER_TIMEOUT_SECONDS: '2',
    });
  }, 120_000);

  afterAll(async () => {
    await topology?.stop();
    await sink?.stop();
    await smsc?.stop();
    await graph?.stop();
  });

  it('reads the workspace through the gateway with the official SDK', async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Distributed',
    });
    const bird = new BirdClient({ apiKey: created.api_key.secret, baseUrl: topology.gatewayUrl });
    await expect(bird.workspace.get()).resolves.toMatchObject({
      id: created.workspace.id,
      name: 'Distributed',
    });
  });

  it('sends an email through the gateway, the email service and its workers over NATS', async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Mail',
    });
    const user = await call(
      topology.gatewayUrl,
      'POST',
      `/admin/v1/workspaces/${created.workspace.id}/users`,
      {
        token: topology.adminToken,
        body: { email: 'ops@mail.test', password: 'a long enough password', role: 'read' },
      },
    );
    expect(user.status).toBe(201);
    const bird = new BirdClient({ apiKey: created.api_key.secret, baseUrl: topology.gatewayUrl });
    const message = await bird.email.send({
      from: 'hello@onboarding.localhost',
      to: ['ops@mail.test'],
      subject: 'Over NATS',
      text: 'x',
    });
    expect(message.status).toBe('accepted');
    await sink.waitFor(() => sink.messages.some((m) => m.messageId.startsWith(`${message.id}@`)));
    for (let i = 0; i < 50 && (await bird.email.get(message.id)).status !== 'delivered'; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await bird.email.get(message.id)).status).toBe('delivered');
  });

  it('sends an SMS through the sms-whatsapp process over NATS, applies its receipt, and honours an inbound STOP', async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Texts',
    });
    const admin = (path: string, body: unknown) =>
      call(topology.gatewayUrl, 'POST', path, { token: topology.adminToken, body });
    expect(
      (
        await admin('/admin/v1/numbers', {
          number: '+31970102030',
          number_type: 'mobile',
          capabilities: ['sms'],
        })
      ).status,
    ).toBe(201);
    const bird = new BirdClient({ apiKey: created.api_key.secret, baseUrl: topology.gatewayUrl });
    await bird.numbers.orders.create({ number: '+31970102030' });
    const text = 'Over NATS, to a carrier: ünïcødé 😀';
    const sent = await bird.sms.send({
      from: '+31970102030',
      to: '+31612345678',
      text,
      category: 'transactional',
    });
    expect(sent).toMatchObject({ status: 'accepted', segments: { encoding: 'UCS2' } });
    await smsc.waitFor(() => smsc.messages.some((m) => m.text === text), 30_000);
    for (let i = 0; i < 100 && (await bird.sms.get(sent.id)).status !== 'delivered'; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await bird.sms.get(sent.id)).status).toBe('delivered');

    await smsc.sendInbound({ from: '+31612345678', to: '+31970102030', text: 'STOP' });
    await smsc.waitFor(
      () => smsc.messages.some((m) => m.to === '31612345678' && m.text !== text),
      30_000,
    );
    const refused = await bird.sms.send({
      from: '+31970102030',
      to: '+31612345678',
      text: 'after stop',
      category: 'marketing',
    });
    expect(refused.status).toBe('rejected');
    expect(refused.last_error?.code).toBe('recipient_opted_out');
    // The STOP reaches the preference ledger through JetStream (consumer preferences-statements).
    let ledger = await bird.preferences.list({ channel: 'sms', handle: '+31612345678' });
    for (let i = 0; i < 200 && ledger.data.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ledger = await bird.preferences.list({ channel: 'sms', handle: '+31612345678' });
    }
    expect(ledger.data).toEqual([
      expect.objectContaining({
        sender_scope: '+31970102030',
        status: 'revoked',
        coverage: 'all',
        origin: 'keyword',
      }),
    ]);
  });

  it('verifies a phone number: the verify process asks the sms-whatsapp process over NATS for a Dutch passcode, the code it sent verifies, and a system send keyed twice reaches the carrier once', async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Logins',
    });
    const admin = (path: string, body: unknown) =>
      call(topology.gatewayUrl, 'POST', path, { token: topology.adminToken, body });
    expect(
      (
        await admin('/admin/v1/numbers', {
          number: '+31970102039',
          number_type: 'mobile',
          capabilities: ['sms'],
        })
      ).status,
    ).toBe(201);
    const bird = new BirdClient({ apiKey: created.api_key.secret, baseUrl: topology.gatewayUrl });
    await bird.numbers.orders.create({ number: '+31970102039' });
    const verification = await bird.verify.verifications.create({
      to: { phone_number: '+31612345671' },
    });
    expect(verification).toMatchObject({ status: 'pending' });
    await smsc.waitFor(() => smsc.messages.some((m) => m.to === '31612345671'), 30_000);
    const text = smsc.messages.find((m) => m.to === '31612345671')?.text ?? '';
    expect(text).toMatch(/verificatiecode is \d{6}/);
    const code = /(\d{6})/.exec(text)?.[1] as string;
    const result = await bird.verify.verifications.check({
      to: { phone_number: '+31612345671' },
      code,
    });
    expect(result).toMatchObject({
      success: true,
      verification: { id: verification.id, status: 'verified', last_channel: 'sms' },
    });
    // A system send asked twice with one dedupe_key (as the verify service's recovery would)
    // answers the message stored the first time, and the carrier gets one.
    const client = new ServiceClient(
      { kind: 'nats', url: topology.natsUrl, timeoutMs: 10_000 },
      'e2e',
    );
    try {
      const ask = (to: string, key: string) =>
        client.send(
          SmsSubjects.SendSystemMessage,
          {
            to,
            template: {
              slug: 'bird_otp_verification',
              language: 'en',
              parameters: { code: '918273' },
            },
            dedupe_key: key,
          },
          { requestId: 'req_e2e', workspaceId: created.workspace.id, caller: { kind: 'operator' } },
        );
      const [first, second] = [
        await ask('+31612345672', 'e2e_dedupe_1'),
        await ask('+31612345672', 'e2e_dedupe_1'),
      ];
      expect(second.id).toBe(first.id);
      // And asked twice at once (two recoveries racing): one message too.
      const [third, fourth] = await Promise.all([
        ask('+31612345673', 'e2e_dedupe_2'),
        ask('+31612345673', 'e2e_dedupe_2'),
      ]);
      expect(fourth.id).toBe(third.id);
      for (const to of ['31612345672', '31612345673'])
        await smsc.waitFor(() => smsc.messages.some((m) => m.to === to), 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(smsc.messages.filter((m) => m.to === '31612345672')).toHaveLength(1);
      expect(smsc.messages.filter((m) => m.to === '31612345673')).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("enforces the ledger's revocations in the email and sms-whatsapp processes through their durable JetStream consumers", async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Consent',
    });
    const admin = (path: string, body: unknown) =>
      call(topology.gatewayUrl, 'POST', path, { token: topology.adminToken, body });
    const number = '+31970102031';
    expect(
      (await admin('/admin/v1/numbers', { number, number_type: 'mobile', capabilities: ['sms'] }))
        .status,
    ).toBe(201);
    const bird = new BirdClient({ apiKey: created.api_key.secret, baseUrl: topology.gatewayUrl });
    await bird.numbers.orders.create({ number });
    const sms = await bird.preferences.create({
      channel: 'sms',
      handle: '+31612345670',
      status: 'revoked',
    });
    const email = await bird.preferences.create({
      channel: 'email',
      handle: 'gone@example.com',
      status: 'revoked',
    });
    // Enforcement follows the events: wait until each projection holds its statement.
    const db = new Client({ connectionString: topology.databaseUrl });
    await db.connect();
    try {
      for (const [schema, write] of [
        ['sms_whatsapp', sms],
        ['email', email],
      ] as const) {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const found = await db.query(
            `SELECT status FROM ${schema}.preference_states WHERE transition_id = $1`,
            [write.transition_id],
          );
          if (found.rows[0]?.status === 'revoked') break;
          if (Date.now() > deadline) throw new Error(`${schema} never projected the revocation`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      await db.end();
    }
    const refused = await bird.sms.send({
      from: number,
      to: '+31612345670',
      text: 'Spring sale',
      category: 'marketing',
    });
    expect(refused.status).toBe('rejected');
    expect(refused.last_error?.code).toBe('recipient_opted_out');
    expect(smsc.messages.some((m) => m.to === '31612345670')).toBe(false);
  });

  it('connects a WhatsApp number, sends a synced template and applies signed webhooks, all over NATS', async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Chats',
    });
    const waba = '110000000000001';
    const phoneNumberId = '110000000000011';
    graph.addAccount({ wabaId: waba, name: 'Chats Inc' });
    graph.addNumber({ phoneNumberId, wabaId: waba, displayPhoneNumber: '+31 20 555 0100' });
    graph.addTemplate(waba, {
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Your order {{1}} has shipped.' }],
    });
    const connected = await call(
      topology.gatewayUrl,
      'POST',
      `/workspaces/${created.workspace.id}/connectors`,
      {
        headers: { authorization: `AccessKey ${created.access_key.secret}` },
        body: {
          connectorTemplateRef: 'whatsapp',
          name: 'Support',
          arguments: { wabaId: waba, phoneId: phoneNumberId, phoneNumber: '+31205550100' },
        },
      },
    );
    expect(connected.status).toBe(201);
    const bird = new BirdClient({ apiKey: created.api_key.secret, baseUrl: topology.gatewayUrl });
    // Connecting asked for the account's templates: the sync runs in the service's workers.
    for (let i = 0; i < 100 && (await bird.whatsapp.templates.list()).data.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));

    const sent = await bird.whatsapp.send({
      from: '+31205550100',
      to: '+31612345678',
      template: {
        slug: 'order_update',
        language: 'en-US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: '#1042' }] }],
      },
    });
    expect(sent.status).toBe('accepted');
    await graph.waitFor(() => graph.sentFrom(phoneNumberId).length === 1, 30_000);
    const { wamid } = graph.sentFrom(phoneNumberId)[0];
    const base = graph.webhookNumber(phoneNumberId);
    for (const status of ['delivered', 'read']) {
      const posted = await graph.postWebhook(
        `${topology.gatewayUrl}/webhooks/whatsapp`,
        graph.statusPayload({ ...base, wamid, status, recipient: '31612345678' }),
        { appSecret: WHATSAPP_APP_SECRET },
      );
      expect(posted.status).toBe(200);
    }
    for (let i = 0; i < 100 && !(await bird.whatsapp.get(sent.id)).read_at; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await bird.whatsapp.get(sent.id)).toMatchObject({ status: 'delivered' });
    expect((await bird.whatsapp.get(sent.id)).read_at).toEqual(expect.any(String));

    const forged = await graph.postWebhook(
      `${topology.gatewayUrl}/webhooks/whatsapp`,
      graph.statusPayload({ ...base, wamid, status: 'failed', recipient: '31612345678' }),
      { appSecret: WHATSAPP_APP_SECRET, badSignature: true },
    );
    expect(forged.status).toBe(401);
    expect((await bird.whatsapp.get(sent.id)).status).toBe('delivered');
  });

  it('accepts a 20 MB email and a 20 MB batch body over NATS (its max_payload as deployed) and delivers the email', async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Large mail',
    });
    const user = await call(
      topology.gatewayUrl,
      'POST',
      `/admin/v1/workspaces/${created.workspace.id}/users`,
      {
        token: topology.adminToken,
        body: { email: 'big@mail.test', password: 'a long enough password', role: 'read' },
      },
    );
    expect(user.status).toBe(201);
    const message = {
      from: 'hello@onboarding.localhost',
      to: ['big@mail.test'],
      subject: 'Large',
      text: 'attached',
    };
    // 15,000,000 bytes as 20,000,000 base64 characters: a 20 MB body whose generated message stays
    // within the 20 MB a message may have once MIME-encoded.
    const attachment = (bytes: number) => ({
      filename: 'large.bin',
      content: Buffer.alloc(bytes, 7).toString('base64'),
    });
    const single = { ...message, attachments: [attachment(15_000_000)] };
    expect(JSON.stringify(single).length).toBeGreaterThan(20_000_000);
    const sent = await call<{ id: string; status: string }>(
      topology.gatewayUrl,
      'POST',
      '/v1/email/messages',
      { token: created.api_key.secret, body: single },
    );
    expect({ status: sent.status, body: sent.body }).toMatchObject({
      status: 202,
      body: { status: 'accepted' },
    });

    const batch = {
      messages: [0, 1].map(() => ({ ...message, attachments: [attachment(7_500_000)] })),
    };
    expect(JSON.stringify(batch).length).toBeGreaterThan(20_000_000);
    const batched = await call(topology.gatewayUrl, 'POST', '/v1/email/batches', {
      token: created.api_key.secret,
      body: batch,
    });
    expect({ status: batched.status, body: batched.body }).toMatchObject({ status: 202 });

    await sink.waitFor(
      () => sink.messages.some((m) => m.messageId.startsWith(`${sent.body.id}@`)),
      90_000,
    );
    const delivered = sink.messages.find((m) => m.messageId.startsWith(`${sent.body.id}@`));
    expect(delivered?.raw.length).toBeGreaterThan(20_000_000);
  }, 120_000);

  it('delivers the events emitted while the webhooks service was stopped once it is back (durable JetStream consumer)', async () => {
    const received: Array<{ headers: Record<string, string>; body: string }> = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    try {
      const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
        name: 'Hooks',
      });
      const bird = new BirdClient({ apiKey: created.api_key.secret, baseUrl: topology.gatewayUrl });
      const { port } = receiver.address() as AddressInfo;
      const endpoint = (await bird.webhooks.create({
        url: `http://127.0.0.1:${port}/hooks`,
        events: ['email_suppression.created'],
      })) as unknown as { secret: string };
      const suppress = (email: string) =>
        call(topology.gatewayUrl, 'POST', '/v1/email/suppressions', {
          token: created.api_key.secret,
          body: { email },
        });
      expect((await suppress('before@example.test')).status).toBe(201);
      await waitUntil(() => received.length === 1);

      await topology.stopService('webhooks');
      for (const email of ['down1@example.test', 'down2@example.test'])
        expect((await suppress(email)).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(received).toHaveLength(1);
      await topology.startService('webhooks');
      await waitUntil(() => received.length === 3);
      const emails = received.map((request) => {
        const event = bird.webhooks.unwrap(request.body, request.headers, {
          secret: endpoint.secret,
        }) as unknown as { data: { email: string } };
        return event.data.email;
      });
      // Deliveries run concurrently: order across events is not promised (as with Stripe, Svix).
      expect(emails[0]).toBe('before@example.test');
      expect(emails.slice(1).sort()).toEqual(['down1@example.test', 'down2@example.test']);
    } finally {
      await new Promise((done) => receiver.close(done));
    }
  });

  it('acts as one realtime server across two realtime processes: counts add up, a publish reaches clients of both, a revoked key closes sockets on both', async () => {
    const first = topology.services.get('realtime')?.clientUrl ?? '';
    const second = (await topology.startService('realtime')).clientUrl ?? '';
    expect(first).not.toBe('');
    expect(second).not.toBe(first);
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Live',
    });
    const made = await call<{
      app: { id: string; websocket_url: string };
      key: { id: string; secret: string };
    }>(topology.gatewayUrl, 'POST', '/v1/realtime/apps', {
      token: created.api_key.secret,
      body: { name: 'live', region: 'eu1', connection_counting: true },
    });
    expect(made.status).toBe(201);
    // The origin the gateway was reached at crosses NATS to the realtime service (no PUBLIC_URL).
    expect(made.body.app.websocket_url).toBe(`${topology.gatewayUrl.replace(/^http/, 'ws')}/app`);
    const extra = await call<{ id: string; secret: string }>(
      topology.gatewayUrl,
      'POST',
      `/v1/realtime/apps/${made.body.app.id}/keys`,
      { token: created.api_key.secret },
    );
    const bird = new BirdClient({
      apiKey: created.api_key.secret,
      baseUrl: topology.gatewayUrl,
      realtime: { key: made.body.key.id, secret: made.body.key.secret },
    } as never);
    const client = (url: string) => {
      const realtime = new BirdRealtime({
        appKey: extra.body.id,
        wsHost: url.replace('http://', ''),
        allowInsecure: true,
        webSocket: (target: string) => new WebSocket(target) as unknown as globalThis.WebSocket,
      } as never);
      return realtime;
    };
    const [onFirst, onSecond] = [client(first), client(second)];
    const state = (c: BirdRealtime) =>
      (c as unknown as { connection: { state: string } }).connection.state;
    // socket.io on the second process: the same frames from the same engine.
    const socket = io(second, {
      path: '/realtime/socket.io',
      auth: { key: extra.body.id },
      transports: ['websocket'],
    });
    const frames: Array<{ event: string }> = [];
    const socketClosed: string[] = [];
    socket.on('message', (frame: { event: string }) => frames.push(frame));
    socket.on('disconnect', (reason: string) => socketClosed.push(reason));
    try {
      await waitUntil(() => frames.some((f) => f.event === 'bird:connection_established'));
      socket.emit('message', { event: 'bird:subscribe', data: { channel: 'news' } });
      await waitUntil(() => frames.some((f) => f.event === 'bird_internal:subscription_succeeded'));
      const received: string[] = [];
      for (const [name, c] of [
        ['first', onFirst],
        ['second', onSecond],
      ] as const) {
        const channel = c.subscribe('news');
        channel.bind('headline', () => received.push(name));
        await waitUntil(() => channel.subscribed);
      }
      // Counts are gathered from both processes: one subscriber on each.
      expect(
        await bird.realtime.channels.get(made.body.app.id, 'news', {
          include: ['connection_count'],
        }),
      ).toEqual({ occupied: true, connection_count: 3 });
      for (let i = 0; i < 3; i++)
        await bird.realtime.publish(made.body.app.id, {
          event: 'headline',
          channels: ['news'],
          data: { i },
        });
      await waitUntil(() => received.length === 6);
      expect(received.filter((name) => name === 'first')).toHaveLength(3);
      expect(received.filter((name) => name === 'second')).toHaveLength(3);
      await waitUntil(() => frames.filter((f) => f.event === 'headline').length === 3);
      const revoked = await call(
        topology.gatewayUrl,
        'POST',
        `/v1/realtime/apps/${made.body.app.id}/keys/${extra.body.id}/revoke`,
        { token: created.api_key.secret },
      );
      expect(revoked.status).toBe(200);
      await waitUntil(
        () =>
          state(onFirst) === 'failed' && state(onSecond) === 'failed' && socketClosed.length === 1,
      );
      // Both processes held the key (their connections used it); the revocation evicted it on
      // each, whichever of them a publish reaches.
      for (let i = 0; i < 6; i++) {
        const refused = await call(
          topology.gatewayUrl,
          'POST',
          `/v1/realtime/apps/${made.body.app.id}/events`,
          {
            token: created.api_key.secret,
            headers: { 'x-realtime-key': extra.body.id, 'x-realtime-secret': extra.body.secret },
            body: { event: 'late', channels: ['news'] },
          },
        );
        expect(refused.status).toBe(401);
      }
      // Nobody is left subscribed anywhere: the channel is unoccupied.
      expect(await bird.realtime.channels.get(made.body.app.id, 'news')).toEqual({
        occupied: false,
      });
    } finally {
      socket.disconnect();
      onFirst.disconnect();
      onSecond.disconnect();
    }
  });

  it('keeps presence, member events, client events and disconnects whole across two realtime processes, and forgets a SIGKILLed one', async () => {
    const first = topology.services.get('realtime')?.clientUrl ?? '';
    const second = (await topology.startService('realtime')).clientUrl ?? '';
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Presence',
    });
    const made = await call<{ app: { id: string }; key: { id: string; secret: string } }>(
      topology.gatewayUrl,
      'POST',
      '/v1/realtime/apps',
      {
        token: created.api_key.secret,
        body: { name: 'presence', region: 'eu1', connection_counting: true },
      },
    );
    const { app, key } = made.body;
    const bird = new BirdClient({
      apiKey: created.api_key.secret,
      baseUrl: topology.gatewayUrl,
      realtime: { key: key.id, secret: key.secret },
    } as never);
    const sign = (signed: string) =>
      `${key.id}:${createHmac('sha256', key.secret).update(signed).digest('hex')}`;
    const clients: BirdRealtime[] = [];
    /** A member's connection to one process: presence data, and signed in as the member. */
    const member = async (url: string, memberId: string) => {
      const memberData = JSON.stringify({ member_id: memberId });
      const client = new BirdRealtime({
        appKey: key.id,
        wsHost: url.replace('http://', ''),
        allowInsecure: true,
        webSocket: (target: string) => new WebSocket(target) as unknown as globalThis.WebSocket,
        authorizer: ({
          connectionId,
          channelName,
        }: {
          connectionId: string;
          channelName: string;
        }) =>
          Promise.resolve({
            auth: sign(`${connectionId}:${channelName}:${memberData}`),
            member_data: memberData,
          }),
        memberAuthorizer: ({ connectionId }: { connectionId: string }) =>
          Promise.resolve({
            auth: sign(`${connectionId}::member::${memberData}`),
            member_data: memberData,
          }),
      } as never);
      clients.push(client);
      const internal = client as unknown as {
        connection: {
          state: string;
          bind: (event: string, handler: (payload: { code: number }) => void) => void;
        };
      };
      await waitUntil(() => internal.connection.state === 'connected');
      const room = client.subscribe('presence-room');
      await waitUntil(() => room.subscribed);
      await client.signin();
      const closes: number[] = [];
      internal.connection.bind('error', (payload) => closes.push(payload.code));
      return { client, room, closes };
    };
    const members = async () =>
      (await bird.realtime.channels.members(app.id, 'presence-room')).members
        .map((m) => m.member_id)
        .sort();
    try {
      const watcher = await member(first, 'watcher');
      const added: string[] = [];
      const removed: string[] = [];
      watcher.room.bind('bird:member_added', (m: { member_id: string }) => added.push(m.member_id));
      watcher.room.bind('bird:member_removed', (m: { member_id: string }) =>
        removed.push(m.member_id),
      );
      const adaHere = await member(first, 'ada');
      const adaThere = await member(second, 'ada');
      const grace = await member(second, 'grace');
      await waitUntil(() => added.length === 2);
      // Once per member, wherever its connections are; the second process lists them all.
      expect(added.sort()).toEqual(['ada', 'grace']);
      expect((grace.room as unknown as { members: Map<string, unknown> }).members.size).toBe(3);
      expect(await members()).toEqual(['ada', 'grace', 'watcher']);
      expect(
        await bird.realtime.channels.get(app.id, 'presence-room', {
          include: ['member_count', 'connection_count'],
        }),
      ).toEqual({ occupied: true, member_count: 3, connection_count: 4 });

      // A member event reaches both of ada's connections, one on each process.
      const nudged: string[] = [];
      adaHere.client.member.bind('nudge', () => nudged.push('first'));
      adaThere.client.member.bind('nudge', () => nudged.push('second'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await bird.realtime.members.send(app.id, 'ada', { event: 'nudge', data: {} });
      await waitUntil(() => nudged.length === 2);
      expect(nudged.sort()).toEqual(['first', 'second']);

      // A client event from the second process reaches the first (not its sender).
      const whispers: string[] = [];
      watcher.room.bind('client-wave', (data: { from: string }) => whispers.push(data.from));
      grace.room.trigger('client-wave', { from: 'grace' });
      await waitUntil(() => whispers.length === 1);

      // SIGKILL the second: grace was only there and leaves once; ada stays (first process).
      await topology.killService('realtime');
      await waitUntil(() => removed.length === 1);
      expect(removed).toEqual(['grace']);
      expect(await members()).toEqual(['ada', 'watcher']);
      expect(
        await bird.realtime.channels.get(app.id, 'presence-room', {
          include: ['connection_count'],
        }),
      ).toEqual({ occupied: true, connection_count: 2 });

      await bird.realtime.members.disconnect(app.id, 'ada');
      await waitUntil(() => adaHere.closes.length === 1);
      expect(adaHere.closes).toEqual([4009]);
      await waitUntil(() => removed.length === 2);
      expect(removed).toEqual(['grace', 'ada']);
    } finally {
      for (const client of clients) client.disconnect();
    }
  });

  it("forwards realtime clients from the gateway's origin: the official client, socket.io long-polling, nothing else", async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Through the gateway',
    });
    const made = await call<{ app: { id: string }; key: { id: string; secret: string } }>(
      topology.gatewayUrl,
      'POST',
      '/v1/realtime/apps',
      { token: created.api_key.secret, body: { name: 'edge', region: 'eu1' } },
    );
    const { app, key } = made.body;
    const bird = new BirdClient({
      apiKey: created.api_key.secret,
      baseUrl: topology.gatewayUrl,
      realtime: { key: key.id, secret: key.secret },
    } as never);
    const official = new BirdRealtime({
      appKey: key.id,
      wsHost: topology.gatewayUrl.replace('http://', ''),
      allowInsecure: true,
      webSocket: (target: string) => new WebSocket(target) as unknown as globalThis.WebSocket,
    } as never);
    // socket.io's default transports: HTTP long-polling first, then the WebSocket upgrade.
    const socket = io(topology.gatewayUrl, { path: '/realtime/socket.io', auth: { key: key.id } });
    const frames: Array<{ event: string }> = [];
    socket.on('message', (frame: { event: string }) => frames.push(frame));
    try {
      const received: unknown[] = [];
      const channel = official.subscribe('edge');
      channel.bind('ping', (data: unknown) => received.push(data));
      await waitUntil(() => channel.subscribed);
      await waitUntil(() => frames.some((f) => f.event === 'bird:connection_established'));
      socket.emit('message', { event: 'bird:subscribe', data: { channel: 'edge' } });
      await waitUntil(() => frames.some((f) => f.event === 'bird_internal:subscription_succeeded'));
      await bird.realtime.publish(app.id, { event: 'ping', channels: ['edge'], data: { n: 1 } });
      await waitUntil(() => received.length === 1 && frames.some((f) => f.event === 'ping'));
      expect(received).toEqual([{ n: 1 }]);

      // Any other WebSocket path is refused at the gateway.
      const stray = new WebSocket(`${topology.gatewayUrl.replace('http', 'ws')}/v1/workspace`);
      const refusal = await new Promise<string>((resolve) => {
        stray.on('unexpected-response', (_request, response) =>
          resolve(String(response.statusCode)),
        );
        stray.on('error', (err) => resolve(err.message));
      });
      expect(refusal).toBe('404');
    } finally {
      socket.disconnect();
      official.disconnect();
    }
  });

  it('upserts contacts and lists an audience through the gateway and the workspace-objects service over NATS', async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'People',
    });
    const bird = new BirdClient({ apiKey: created.api_key.secret, baseUrl: topology.gatewayUrl });
    const audience = await bird.audiences.create({ name: 'Everyone' });
    const result = await bird.contacts.batch({
      audience_ids: [audience.id],
      contacts: Array.from({ length: 300 }, (_, i) => ({ email: `p${i}@nats.test` })),
    });
    expect(result.data.filter((r) => r.status === 'created')).toHaveLength(300);
    const page = await bird.audiences.listContacts(audience.id, { limit: 100 });
    expect(page.data).toHaveLength(100);
    expect(page.next_cursor).toEqual(expect.any(String));

    // One contact, in a workspace of its own: created, upserted by its email (the same contact),
    // read back and listed.
    const single = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'One person',
    });
    const one = new BirdClient({ apiKey: single.api_key.secret, baseUrl: topology.gatewayUrl });
    const ada = await one.contacts.create({ email: 'ada@nats.test', first_name: 'Ada' });
    const upserted = await one.contacts.batch({
      contacts: [{ email: 'ada@nats.test', last_name: 'Lovelace' }],
    });
    expect(upserted.data).toEqual([
      expect.objectContaining({ status: 'updated', contact_id: ada.id }),
    ]);
    await expect(one.contacts.get(ada.id)).resolves.toMatchObject({
      id: ada.id,
      email: 'ada@nats.test',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    const listed = await one.contacts.list({ limit: 10 });
    expect(listed.data.map((contact) => contact.id)).toEqual([ada.id]);
  });

  it('answers a bad API key with the 401 envelope', async () => {
    const bird = new BirdClient({
      apiKey: 'bk_us1_000000000000000000000000000000000000000000000000',
      baseUrl: topology.gatewayUrl,
      maxRetries: 0,
    });
    const error = await bird.workspace.get().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BirdAuthError);
    expect(error).toMatchObject({
      statusCode: 401,
      code: 'E02002',
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('searches the docs through the gateway and the docs service over NATS', async () => {
    const response = await call<{ data: Array<{ slug: string }> }>(
      topology.gatewayUrl,
      'GET',
      '/v1/docs/search?q=idempotency',
    );
    expect(response.status).toBe(200);
    expect(response.body.data[0].slug).toBe('guides/idempotency');
  });

  it('creates a realtime app once over NATS, replays the retry, and pages the list', async () => {
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Realtime',
    });
    const options = {
      token: created.api_key.secret,
      body: { name: 'Chat', region: 'eu1' },
      headers: { 'idempotency-key': 'e2e-create-1' },
    };
    const first = await call<{ app: { id: string }; key: { secret: string } }>(
      topology.gatewayUrl,
      'POST',
      '/v1/realtime/apps',
      options,
    );
    const retry = await call<{ app: { id: string } }>(
      topology.gatewayUrl,
      'POST',
      '/v1/realtime/apps',
      options,
    );
    expect(first.status).toBe(201);
    expect(first.body.key.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(retry.headers.get('idempotency-replay')).toBe('true');
    expect(retry.body.app.id).toBe(first.body.app.id);
    const list = await call<{ data: Array<{ id: string }>; total: number }>(
      topology.gatewayUrl,
      'GET',
      '/v1/realtime/apps?include_total=true',
      { token: created.api_key.secret },
    );
    expect(list.body).toMatchObject({ total: 1, data: [{ id: first.body.app.id }] });
  });

  it('carries a service error across NATS unchanged into the envelope', async () => {
    const response = await call(topology.gatewayUrl, 'GET', '/v1/docs/pages?slug=no/such-page');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      error: {
        type: 'not_found_error',
        code: 'E04002',
        request_id: response.headers.get('x-request-id'),
      },
    });
  });

  it('serves /healthz and /readyz on every service process, and Prometheus metrics on its METRICS_PORT only', async () => {
    for (const [name, { healthUrl, metricsUrl }] of topology.services) {
      expect({ name, status: (await call(healthUrl, 'GET', '/healthz')).status }).toEqual({
        name,
        status: 200,
      });
      expect({ name, status: (await call(healthUrl, 'GET', '/readyz')).status }).toEqual({
        name,
        status: 200,
      });
      // Not on the health port any more: an old scrape there gets a plain 404.
      const old = await call<{ error: { code: string } }>(healthUrl, 'GET', '/metrics');
      expect({ name, status: old.status, code: old.body.error?.code }).toEqual({
        name,
        status: 404,
        code: 'E01006',
      });
      const metrics = await fetch(metricsUrl);
      expect({ name, type: metrics.headers.get('content-type') }).toEqual({
        name,
        type: expect.stringContaining('text/plain'),
      });
      expect({
        name,
        rpc: (await metrics.text()).includes('switchboard_rpc_requests_total'),
      }).toEqual({
        name,
        rpc: true,
      });
    }
  });

  it('answers /metrics on the public API port with the 404 envelope, and serves the gateway metrics on its METRICS_PORT', async () => {
    const api = await call(topology.gatewayUrl, 'GET', '/metrics');
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ error: { code: 'E01006', type: 'not_found_error' } });
    await call(topology.gatewayUrl, 'GET', '/v1/docs/search?q=metrics');
    const metrics = await fetch(topology.gatewayMetricsUrl);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(
      /switchboard_http_requests_total\{method="GET",route="\/v1\/docs\/search",status="200"\} \d+/,
    );
  });

  it('shares one organization quota between two gateway processes', async () => {
    const second = await topology.addGateway();
    const created = await createWorkspace(topology.gatewayUrl, topology.adminToken, {
      name: 'Shared quota',
    });
    const quota = 40;
    const db = new Client({ connectionString: topology.databaseUrl });
    await db.connect();
    await db.query(
      "INSERT INTO gateway.rate_limit_overrides (organization_id, policy, quota) VALUES ($1, 'read', $2)",
      [created.organization.id, quota],
    );
    await db.end();
    const hammer = async (base: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const batch = await Promise.all(
          Array.from({ length: 10 }, () =>
            call(base, 'GET', '/v1/workspace', { token: created.api_key.secret }),
          ),
        );
        statuses.push(...batch.map((r) => r.status));
      }
      return statuses;
    };
    const statuses = (await Promise.all([hammer(topology.gatewayUrl), hammer(second)])).flat();
    const admitted = statuses.filter((status) => status === 200).length;
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    // Never more than the quota; at most a few units short (leases one replica holds unspent).
    expect(admitted).toBeLessThanOrEqual(quota);
    expect(admitted).toBeGreaterThanOrEqual(quota - 4);
  });

  it('answers 503 with the envelope while NATS is down, and recovers by itself when it returns', async () => {
    await topology.nats.stop();
    const started = Date.now();
    const down = await call(topology.gatewayUrl, 'GET', '/v1/docs/search?q=errors');
    expect(Date.now() - started).toBeLessThan(2_000 + 1_000);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      error: {
        type: 'service_unavailable_error',
        code: expect.stringMatching(/^E0500[12]$/),
        request_id: expect.stringMatching(/^req_/),
      },
    });
    expect((await call(topology.gatewayUrl, 'GET', '/readyz')).status).toBe(503);

    await topology.nats.restart();
    await waitForOk(`${topology.gatewayUrl}/readyz`, 30_000);
    const back = await call(topology.gatewayUrl, 'GET', '/v1/docs/search?q=errors');
    expect(back.status).toBe(200);
  }, 60_000);
});
