import { createHash, createHmac, hkdfSync, randomUUID } from 'node:crypto';
import { BirdClient } from '@messagebird/sdk';
import { call, createWorkspace, freePort, startGraphStandIn } from '@switchboard/testing';
import type { CreatedWorkspace, GraphStandIn } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

const APP_SECRET = 'inbound-test-app-secret';
const ENCRYPTION_KEY = 'sbenc_inbound_api_test_key_0123456789';
const NUMBER = {
  wabaId: '4100000001',
  phoneNumberId: '5100000001',
  displayPhoneNumber: '15550100001',
};
const CONTACT = '31612345678';

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A media link as the service signs them (docs/guides/whatsapp-inbound.md), for a chosen expiry. */
function mediaLinkToken(mediaId: string, expiresAt: number): string {
  const key = Buffer.from(
    hkdfSync('sha256', ENCRYPTION_KEY, 'switchboard', 'whatsapp media links v1', 32),
  );
  const body = `${mediaId}.${expiresAt}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/**
 * Inbound WhatsApp end to end on the embedded default with the official SDK: Meta's webhooks
 * posted signed by the Graph stand-in, media fetched from it, reactions and read receipts sent
 * to it.
 */
describe('WhatsApp inbound messages, media, reactions and read receipts', () => {
  let platform: TestPlatform;
  let graph: GraphStandIn;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let numberId: string;

  const webhook = async (payload: unknown) => {
    const result = await graph.postWebhook(`${platform.base}/webhooks/whatsapp`, payload, {
      appSecret: APP_SECRET,
    });
    expect(result.status).toBe(200);
  };
  const messageOf = async (wamid: string) =>
    eventually(
      async () =>
        (
          await platform.db.query<{ id: string; content: Record<string, unknown> }>(
            `SELECT id, content FROM sms_whatsapp.whatsapp_messages WHERE provider_message_id = $1`,
            [wamid],
          )
        ).rows[0],
      Boolean,
    );
  const receiveText = async (text: string) => {
    const wamid = `wamid.in-${randomUUID()}`;
    await webhook(
      graph.inboundTextPayload({ ...NUMBER, from: CONTACT, text, wamid, profileName: 'Ana' }),
    );
    return { wamid, id: (await messageOf(wamid)).id };
  };

  beforeAll(async () => {
    graph = await startGraphStandIn();
    graph.addAccount({ wabaId: NUMBER.wabaId, name: 'Acme' });
    graph.addNumber({ ...NUMBER, displayPhoneNumber: '+1 555-010-0001' });
    // PUBLIC_URL defaults to the gateway on PORT: a fixed port makes it known before the start.
    platform = await startTestPlatform({
      PORT: String(await freePort()),
      RATE_LIMITS: 'off',
      ENCRYPTION_KEY,
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'inbound-verify',
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    // The number as connecting it leaves it (connecting has its own spec).
    numberId = `wan_inbound${Date.now()}`;
    await platform.db.query(
      `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
       VALUES ($1, $2, $3, 'Acme')`,
      [`waba_inbound${Date.now()}`, acme.workspace.id, NUMBER.wabaId],
    );
    await platform.db.query(
      `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
         phone_number_id, phone_number, channel_id, name, status)
       SELECT $1, $2, id, $3, '+15550100001', $4, 'Acme', 'connected'
       FROM sms_whatsapp.whatsapp_business_accounts WHERE waba = $5`,
      [numberId, acme.workspace.id, NUMBER.phoneNumberId, randomUUID(), NUMBER.wabaId],
    );
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await graph?.stop();
  });

  it("stores an inbound message once, whatever Meta's retries, opens the window and lists it", async () => {
    const wamid = `wamid.in-${randomUUID()}`;
    const payload = graph.inboundTextPayload({
      ...NUMBER,
      from: CONTACT,
      text: 'Hello',
      wamid,
      profileName: 'Ana',
    });
    await webhook(payload);
    await webhook(payload);
    const { id } = await messageOf(wamid);
    const message = await bird.whatsapp.get(id);
    expect(message).toMatchObject({
      id,
      direction: 'inbound',
      status: 'received',
      text: { body: 'Hello' },
      from: { phone_number: `+${CONTACT}`, display_name: 'Ana' },
      to: { phone_number: '+15550100001' },
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const stored = await platform.db.query(
      `SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_messages WHERE provider_message_id = $1`,
      [wamid],
    );
    expect(stored.rows[0].n).toBe(1);
    const received = await platform.db.query<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM sms_whatsapp.outbox WHERE type = 'whatsapp.received'
         AND payload->'data'->>'whatsapp_id' = $1`,
      [id],
    );
    expect(received.rows).toHaveLength(1);
    expect(received.rows[0].payload.data).toMatchObject({
      whatsapp_id: id,
      workspace_id: acme.workspace.id,
      direction: 'inbound',
      text: { body: 'Hello' },
    });
    const window = await platform.db.query(
      `SELECT last_inbound_at FROM sms_whatsapp.whatsapp_service_windows WHERE number_id = $1 AND contact = $2`,
      [numberId, `+${CONTACT}`],
    );
    expect(Date.now() - new Date(window.rows[0].last_inbound_at).getTime()).toBeLessThan(60_000);
    const listed = [];
    for await (const item of bird.whatsapp.list({ direction: 'inbound' })) listed.push(item.id);
    expect(listed).toContain(id);
  });

  it("logs a contact's reaction that Meta delivered before the message it reacts to", async () => {
    const wamid = `wamid.in-${randomUUID()}`;
    // Meta does not keep order: the reaction first, the message a moment later.
    await webhook(
      graph.inboundReactionPayload({
        ...NUMBER,
        from: CONTACT,
        wamid: `wamid.re-${randomUUID()}`,
        messageId: wamid,
        emoji: '🙌',
      }),
    );
    await webhook(
      graph.inboundTextPayload({ ...NUMBER, from: CONTACT, text: 'Early bird', wamid }),
    );
    const { id } = await messageOf(wamid);
    const message = await eventually(
      () => bird.whatsapp.get(id),
      (m) => (m.reactions ?? []).some((r) => r.emoji === '🙌'),
    );
    expect(message.reactions).toEqual([
      expect.objectContaining({
        emoji: '🙌',
        from: expect.objectContaining({ phone_number: `+${CONTACT}` }),
      }),
    ]);
  });

  it('records a change with a null message or an absurd timestamp instead of retrying it for a day', async () => {
    const wamid = `wamid.in-${randomUUID()}`;
    const payload = graph.inboundTextPayload({ ...NUMBER, from: CONTACT, text: 'Odd', wamid });
    const value = payload.entry[0].changes[0].value as { messages: unknown[] };
    (value.messages[0] as { timestamp: string }).timestamp = '99999999999999';
    value.messages.unshift(null);
    await webhook(payload);
    const { id } = await messageOf(wamid);
    const message = await bird.whatsapp.get(id);
    // Meta's clock ahead of ours (or nonsense) is read as now, not as year 5138.
    expect(Math.abs(Date.now() - new Date(message.created_at).getTime())).toBeLessThan(60_000);
  });

  it('fetches inbound media and serves it through a 302 to a link that needs no credentials', async () => {
    const bytes = Buffer.from(`jpeg bytes ${randomUUID()}`);
    graph.addMedia({ id: 'media-photo-1', mimeType: 'image/jpeg', bytes });
    const wamid = `wamid.in-${randomUUID()}`;
    await webhook(
      graph.inboundMediaPayload({
        ...NUMBER,
        from: CONTACT,
        wamid,
        kind: 'image',
        mediaId: 'media-photo-1',
        mimeType: 'image/jpeg',
        sha256: createHash('sha256').update(bytes).digest('hex'),
        caption: 'a photo',
      }),
    );
    const { id, content } = await messageOf(wamid);
    const mediaId = String(content.id);
    expect(mediaId).toMatch(/^waf_/);
    // The event carries the media's url as a read shows it, so a subscriber need not read back.
    const url = `${platform.base}/v1/whatsapp/messages/${id}/media/${mediaId}`;
    const received = await platform.db.query<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM sms_whatsapp.outbox WHERE type = 'whatsapp.received'
         AND payload->'data'->>'whatsapp_id' = $1`,
      [id],
    );
    expect(received.rows[0].payload.data.image).toEqual({
      id: mediaId,
      mime_type: 'image/jpeg',
      caption: 'a photo',
      url,
    });
    expect((await bird.whatsapp.get(id)).image?.url).toBe(url);
    await eventually(
      async () =>
        (
          await platform.db.query(`SELECT status FROM sms_whatsapp.whatsapp_media WHERE id = $1`, [
            mediaId,
          ])
        ).rows[0]?.status,
      (status) => status === 'stored',
    );
    const media = await bird.whatsapp.messages.media(id, mediaId);
    expect(media.contentType).toBe('image/jpeg');
    expect(Buffer.from(media.data).equals(bytes)).toBe(true);

    const redirect = await fetch(`${platform.base}/v1/whatsapp/messages/${id}/media/${mediaId}`, {
      headers: { authorization: `Bearer ${acme.api_key.secret}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(`${platform.base}/media/whatsapp/`)).toBe(true);
    const download = await fetch(location);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const expired = await call(
      platform.base,
      'GET',
      `/media/whatsapp/${mediaLinkToken(mediaId, Date.now() - 1000)}`,
    );
    expect(expired.status).toBe(403);
    expect(expired.body).toMatchObject({ error: { code: 'E01099' } });
    const forged = await call(
      platform.base,
      'GET',
      `/media/whatsapp/${mediaId}.${Date.now() + 60_000}.${'A'.repeat(43)}`,
    );
    expect(forged.status).toBe(404);
    expect(forged.body).toMatchObject({ error: { code: 'E04088' } });

    // Past its 30 days: the link refuses with 410, and so does the API.
    await platform.db.query(
      `UPDATE sms_whatsapp.whatsapp_media SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [mediaId],
    );
    expect((await fetch(location)).status).toBe(410);
    const gone = await call(platform.base, 'GET', `/v1/whatsapp/messages/${id}/media/${mediaId}`, {
      token: acme.api_key.secret,
    });
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ error: { code: 'E04089' } });
    expect(
      (
        await call(platform.base, 'GET', `/v1/whatsapp/messages/${id}/media/${mediaId}`, {
          token: other.api_key.secret,
        })
      ).status,
    ).toBe(404);
  });

  it('answers 409 with Retry-After while the media is still being fetched, then serves it once Meta recovers', async () => {
    const bytes = Buffer.from(`%PDF ${randomUUID()}`);
    graph.addMedia({ id: 'media-slow', mimeType: 'application/pdf', bytes });
    graph.failFor(60_000, { status: 500, path: '/media-slow' });
    const wamid = `wamid.in-${randomUUID()}`;
    await webhook(
      graph.inboundMediaPayload({
        ...NUMBER,
        from: CONTACT,
        wamid,
        kind: 'document',
        mediaId: 'media-slow',
        mimeType: 'application/pdf',
        sha256: createHash('sha256').update(bytes).digest('hex'),
        filename: 'a.pdf',
      }),
    );
    const { id, content } = await messageOf(wamid);
    const pending = await call(
      platform.base,
      'GET',
      `/v1/whatsapp/messages/${id}/media/${String(content.id)}`,
      {
        token: acme.api_key.secret,
      },
    );
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ error: { code: 'E01098' } });
    expect(pending.headers.get('retry-after')).toBe('2');
    // Meta answers again: the fetch retried with back-off stores the file.
    graph.clearFailures();
    await eventually(
      async () =>
        (
          await platform.db.query(`SELECT status FROM sms_whatsapp.whatsapp_media WHERE id = $1`, [
            String(content.id),
          ])
        ).rows[0]?.status,
      (status) => status === 'stored',
      30_000,
    );
    const media = await bird.whatsapp.messages.media(id, String(content.id));
    expect(Buffer.from(media.data).equals(bytes)).toBe(true);
  }, 45_000);

  it('serves media larger than one transport chunk whole', async () => {
    const bytes = Buffer.alloc(9 * 1024 * 1024 + 123, 7);
    bytes.write(randomUUID(), 0);
    graph.addMedia({ id: 'media-video-big', mimeType: 'video/mp4', bytes });
    const wamid = `wamid.in-${randomUUID()}`;
    await webhook(
      graph.inboundMediaPayload({
        ...NUMBER,
        from: CONTACT,
        wamid,
        kind: 'video',
        mediaId: 'media-video-big',
        mimeType: 'video/mp4',
        sha256: createHash('sha256').update(bytes).digest('hex'),
      }),
    );
    const { id, content } = await messageOf(wamid);
    const mediaId = String(content.id);
    await eventually(
      async () =>
        (
          await platform.db.query(`SELECT status FROM sms_whatsapp.whatsapp_media WHERE id = $1`, [
            mediaId,
          ])
        ).rows[0]?.status,
      (status) => status === 'stored',
    );
    const media = await bird.whatsapp.messages.media(id, mediaId);
    expect(media.contentType).toBe('video/mp4');
    expect(media.contentLength).toBe(bytes.length);
    expect(Buffer.from(media.data).equals(bytes)).toBe(true);
  });

  it('records media WhatsApp refuses as failed, and answers 404 for it', async () => {
    graph.failNext(1, { status: 400, code: 100, path: '/media-refused' });
    const wamid = `wamid.in-${randomUUID()}`;
    await webhook(
      graph.inboundMediaPayload({
        ...NUMBER,
        from: CONTACT,
        wamid,
        kind: 'audio',
        mediaId: 'media-refused',
        mimeType: 'audio/ogg',
        sha256: 'x',
        voice: true,
      }),
    );
    const { id, content } = await messageOf(wamid);
    const failed = await eventually(
      async () =>
        (
          await platform.db.query<{ status: string; error: string }>(
            `SELECT status, error FROM sms_whatsapp.whatsapp_media WHERE id = $1`,
            [String(content.id)],
          )
        ).rows[0],
      (row) => row?.status === 'failed',
    );
    expect(failed.error).toMatch(/100/);
    const answer = await call(
      platform.base,
      'GET',
      `/v1/whatsapp/messages/${id}/media/${String(content.id)}`,
      { token: acme.api_key.secret },
    );
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: 'E04090' } });
  });

  it('sets, replaces and removes our reaction through the queue and logs every change', async () => {
    const { id, wamid } = await receiveText('React to me');
    await webhook(
      graph.inboundReactionPayload({ ...NUMBER, from: CONTACT, messageId: wamid, emoji: '🎉' }),
    );
    const first = await bird.whatsapp.reaction.set(id, { emoji: '👍' });
    expect(first).toMatchObject({ id: expect.stringMatching(/^wre_/), emoji: '👍' });
    await bird.whatsapp.reaction.set(id, { emoji: '❤️' });
    const reactionsSent = () =>
      graph.sent.filter(
        (sent) => (sent.body.reaction as { message_id?: string })?.message_id === wamid,
      );
    await graph.waitFor(() => reactionsSent().length === 2);
    expect(reactionsSent().map((sent) => (sent.body.reaction as { emoji: string }).emoji)).toEqual([
      '👍',
      '❤️',
    ]);
    const message = await eventually(
      () => bird.whatsapp.get(id),
      (m) => (m.reactions ?? []).some((r) => r.emoji === '❤️'),
    );
    expect(message.reactions).toEqual(
      expect.arrayContaining([
        { emoji: '❤️', from: { phone_number: '+15550100001' } },
        expect.objectContaining({
          emoji: '🎉',
          from: expect.objectContaining({ phone_number: `+${CONTACT}` }),
        }),
      ]),
    );

    await bird.whatsapp.reaction.remove(id);
    await graph.waitFor(() => reactionsSent().length === 3);
    expect((reactionsSent()[2].body.reaction as { emoji: string }).emoji).toBe('');
    await bird.whatsapp.reaction.remove(id); // nothing of ours stands: 202, nothing sent or logged
    const log = await eventually(
      async () => {
        const entries = [];
        for await (const entry of bird.whatsapp.reaction.listEvents(id, { limit: 2 }))
          entries.push(entry);
        return entries;
      },
      (entries) => entries.length === 4,
    );
    expect(log.map((entry) => [entry.emoji, entry.status])).toEqual([
      [null, 'sent'],
      ['❤️', 'sent'],
      ['👍', 'sent'],
      ['🎉', 'received'],
    ]);
    expect(reactionsSent()).toHaveLength(3);
    const reacted = await platform.db.query<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM sms_whatsapp.outbox WHERE type = 'whatsapp.reacted'
         AND payload->'data'->>'whatsapp_id' = $1`,
      [id],
    );
    expect(reacted.rows.map((row) => row.payload.data)).toEqual([
      {
        whatsapp_id: id,
        emoji: '🎉',
        from: { phone_number: `+${CONTACT}`, display_name: 'Test User' },
        to: { phone_number: '+15550100001' },
        workspace_id: acme.workspace.id,
      },
    ]);
  });

  describe('our reactions and the status webhooks Meta posts about them', () => {
    const reactionOfOurs = async (entryId: string) =>
      (
        await platform.db.query<{ status: string; provider_message_id: string | null }>(
          `SELECT status, provider_message_id FROM sms_whatsapp.whatsapp_reaction_events
           WHERE id = $1`,
          [entryId],
        )
      ).rows[0];
    const failedStatus = (wamid: string) =>
      graph.statusPayload({
        ...NUMBER,
        wamid,
        status: 'failed',
        recipient: CONTACT,
        errors: [{ code: 131026, title: 'Message undeliverable' }],
      });

    it('applies a status webhook for a message while a reaction to it waits on a slow Meta', async () => {
      const { id, wamid } = await receiveText('Meta is slow today');
      const reactionCalls = () =>
        graph
          .callsTo('POST', `/${NUMBER.phoneNumberId}/messages`)
          .filter(
            (sent) =>
              (sent.body as { reaction?: { message_id?: string } }).reaction?.message_id === wamid,
          );
      const first = await bird.whatsapp.reaction.set(id, { emoji: '👍' });
      const sent = await eventually(
        () => reactionOfOurs(first.id),
        (entry) => Boolean(entry.provider_message_id),
      );
      graph.delayMs = 2000;
      try {
        await bird.whatsapp.reaction.set(id, { emoji: '❤️' });
        await graph.waitFor(() => reactionCalls().length === 2);
        const inFlight = reactionCalls()[1];
        // Meta reports the first reaction failed while the second one is on its way.
        await webhook(failedStatus(sent.provider_message_id as string));
        const failed = await eventually(
          () => reactionOfOurs(first.id),
          (entry) => entry.status === 'failed',
          5_000,
        );
        expect(failed.status).toBe('failed');
        // Applied before Graph answered the second reaction: nothing held the message meanwhile.
        expect(inFlight.status).toBe(0);
      } finally {
        graph.delayMs = 0;
      }
      const message = await eventually(
        () => bird.whatsapp.get(id),
        (m) => (m.reactions ?? []).some((r) => r.emoji === '❤️'),
      );
      expect(message.reactions).toEqual([{ emoji: '❤️', from: { phone_number: '+15550100001' } }]);
    });

    it('fails a reaction whose failed status Meta posted before its wamid was recorded', async () => {
      const { id } = await receiveText('Fail me late');
      const reactionWamid = `wamid.reaction-${randomUUID()}`;
      const entryId = `wre_late${Date.now()}`;
      // The reaction as the runner leaves it while Graph answers: pending, no wamid yet.
      await platform.db.query(
        `INSERT INTO sms_whatsapp.whatsapp_reaction_events (id, workspace_id, message_id, emoji,
           status, direction, from_address, occurred_at)
         VALUES ($1, $2, $3, '😂', 'pending', 'outbound', '{"phone_number":"+15550100001"}', now())`,
        [entryId, acme.workspace.id, id],
      );
      const failed = failedStatus(reactionWamid);
      await webhook(failed);
      const late = await eventually(
        async () =>
          (
            await platform.db.query<{ payload: Record<string, unknown> }>(
              `SELECT payload FROM sms_whatsapp.jobs
               WHERE queue = 'whatsapp.late-statuses' AND payload::text LIKE '%' || $1 || '%'`,
              [reactionWamid],
            )
          ).rows,
        (rows) => rows.length > 0,
      );
      expect(late[0].payload).toMatchObject({ workspace_id: acme.workspace.id });
      // Then the runner records what Meta answered and folds it, as it does after its Graph call.
      await platform.db.query(
        `WITH recorded AS (
           UPDATE sms_whatsapp.whatsapp_reaction_events SET status = 'sent', provider_message_id = $2
           WHERE id = $1 RETURNING message_id)
         UPDATE sms_whatsapp.whatsapp_messages m
         SET reaction = '{"emoji":"😂","from":{"phone_number":"+15550100001"}}'
         FROM recorded WHERE m.id = recorded.message_id`,
        [entryId, reactionWamid],
      );
      const entry = await eventually(
        () => reactionOfOurs(entryId),
        (row) => row.status === 'failed',
      );
      expect(entry.status).toBe('failed');
      expect((await bird.whatsapp.get(id)).reactions ?? []).toEqual([]);
      const [event] = await collect(bird.whatsapp.reaction.listEvents(id));
      expect(event).toMatchObject({
        id: entryId,
        status: 'failed',
        error: { code: 'undeliverable', meta_error_code: '131026' },
      });
    });
  });

  it('refuses a reaction that is not one emoji, or on a message this workspace sent', async () => {
    const { id } = await receiveText('Not an emoji');
    for (const emoji of ['ok', '👍👍', '']) {
      const refused = await call(platform.base, 'PUT', `/v1/whatsapp/messages/${id}/reaction`, {
        token: acme.api_key.secret,
        body: { emoji },
      });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ error: { code: 'E01095' } });
    }
    const outbound = await outboundMessage();
    const own = await call(platform.base, 'PUT', `/v1/whatsapp/messages/${outbound}/reaction`, {
      token: acme.api_key.secret,
      body: { emoji: '👍' },
    });
    expect(own.status).toBe(422);
    expect(own.body).toMatchObject({ error: { code: 'E01096' } });
  });

  it('marks an inbound message read (202, Meta told) and refuses an outbound one (422)', async () => {
    const { id, wamid } = await receiveText('Read me');
    expect(await bird.whatsapp.markRead(id, { typing_indicator: true })).toEqual({
      typing_indicator: true,
    });
    await graph.waitFor(() => graph.sent.some((sent) => sent.body.message_id === wamid));
    expect(graph.sent.find((sent) => sent.body.message_id === wamid)?.body).toEqual({
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: wamid,
      typing_indicator: { type: 'text' },
    });
    const read = await eventually(
      () => bird.whatsapp.get(id),
      (m) => Boolean(m.read_at),
    );
    expect(read.read_at).toBeTruthy();

    const outbound = await outboundMessage();
    const refused = await call(platform.base, 'POST', `/v1/whatsapp/messages/${outbound}/read`, {
      token: acme.api_key.secret,
      body: {},
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: { code: 'E01097' } });

    // Past the 15 days provider ids are kept: 404.
    const { id: old } = await receiveText('Too old');
    await platform.db.query(
      `UPDATE sms_whatsapp.whatsapp_messages SET created_at = now() - interval '16 days' WHERE id = $1`,
      [old],
    );
    const late = await call(platform.base, 'POST', `/v1/whatsapp/messages/${old}/read`, {
      token: acme.api_key.secret,
    });
    expect(late.status).toBe(404);
    expect(late.body).toMatchObject({ error: { code: 'E04086' } });
  });

  it('applies an inbound message Meta posted while its number was still being connected', async () => {
    const late = {
      wabaId: '4100000002',
      phoneNumberId: '5100000002',
      displayPhoneNumber: '15550100002',
    };
    graph.addAccount({ wabaId: late.wabaId, name: 'Acme late' });
    graph.addNumber({ ...late, displayPhoneNumber: '+1 555-010-0002' });
    const wamid = `wamid.in-${randomUUID()}`;
    await webhook(graph.inboundTextPayload({ ...late, from: CONTACT, text: 'Early', wamid }));
    const connected = await call(
      platform.base,
      'POST',
      `/workspaces/${acme.workspace.id}/connectors`,
      {
        headers: { authorization: `AccessKey ${acme.access_key.secret}` },
        body: {
          connectorTemplateRef: 'whatsapp',
          name: 'Late',
          arguments: {
            wabaId: late.wabaId,
            phoneId: late.phoneNumberId,
            phoneNumber: '+15550100002',
          },
        },
      },
    );
    expect(connected.status).toBe(201);
    const { id } = await messageOf(wamid);
    expect(await bird.whatsapp.get(id)).toMatchObject({
      direction: 'inbound',
      text: { body: 'Early' },
    });
  });

  it('shows another workspace nothing', async () => {
    const { id } = await receiveText('Private');
    for (const attempt of [
      call(platform.base, 'POST', `/v1/whatsapp/messages/${id}/read`, {
        token: other.api_key.secret,
      }),
      call(platform.base, 'PUT', `/v1/whatsapp/messages/${id}/reaction`, {
        token: other.api_key.secret,
        body: { emoji: '👍' },
      }),
      call(platform.base, 'DELETE', `/v1/whatsapp/messages/${id}/reaction`, {
        token: other.api_key.secret,
      }),
      call(platform.base, 'GET', `/v1/whatsapp/messages/${id}/reaction-events`, {
        token: other.api_key.secret,
      }),
    ]) {
      const answer = await attempt;
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: 'E04080' } });
    }
    const listed = [];
    for await (const item of otherBird.whatsapp.list({ direction: 'inbound' }))
      listed.push(item.id);
    expect(listed).toEqual([]);
  });

  /** An outbound message of Acme's, as a send leaves it once Meta took it. */
  async function outboundMessage(): Promise<string> {
    const id = `wam_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
    await platform.db.query(
      `INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status, number_id,
         business_phone, contact_phone, content_kind, content, provider_message_id, created_at, status_at)
       VALUES ($1, $2, 'outbound', 'sent', $3, '+15550100001', $4, 'text', '{"body":"hi"}',
         $5, now(), now())`,
      [id, acme.workspace.id, numberId, `+${CONTACT}`, `wamid.out-${randomUUID()}`],
    );
    return id;
  }
});
