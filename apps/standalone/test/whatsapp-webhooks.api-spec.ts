import { createHmac } from 'node:crypto';
import { call, createWorkspace, startGraphStandIn } from '@switchboard/testing';
import type { CreatedWorkspace, GraphStandIn, WebhookNumber } from '@switchboard/testing';
import fc from 'fast-check';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

const APP_SECRET = 'meta-app-secret-for-tests';
const VERIFY_TOKEN = 'verify-token-for-tests';
const WABA = '102290129340398';
const PHONE_NUMBER_ID = '106540352242922';
const PHONE = '+15550783881';

const sign = (body: Buffer | string, secret = APP_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Meta's `whatsapp_business_account` payload with one change. */
function payload(field: string, value: Record<string, unknown>, waba = WABA) {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: waba, changes: [{ field, value }] }],
  });
}

/**
 * Meta's webhook endpoint on the embedded default: the challenge, the signature over the raw
 * body (nothing recorded without it), the inbox written before the 200, and its processing
 * applying each change once however often Meta retries it.
 */
describe('WhatsApp webhooks', () => {
  let platform: TestPlatform;
  let graph: GraphStandIn;
  let acme: CreatedWorkspace;
  let number: WebhookNumber;
  let numberId: string;
  let url: string;

  const post = (body: Buffer | string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const postSigned = (body: string) => post(body, { 'x-hub-signature-256': sign(body) });
  const inboxCount = async () =>
    Number(
      (await platform.db.query('SELECT count(*) FROM sms_whatsapp.whatsapp_webhook_inbox')).rows[0]
        .count,
    );
  const inboxRow = async (body: string) =>
    (
      await platform.db.query(
        `SELECT id, body, processed_at, error FROM sms_whatsapp.whatsapp_webhook_inbox
         WHERE body = $1 ORDER BY id`,
        [body],
      )
    ).rows as Array<{ id: string; body: string; processed_at: Date | null; error: string | null }>;
  const lastNumberEvent = async () =>
    (
      await platform.db.query<{ seq: string }>(
        'SELECT coalesce(max(seq), 0) AS seq FROM sms_whatsapp.whatsapp_number_events',
      )
    ).rows[0].seq;
  const processed = (body: string) =>
    eventually(
      () => inboxRow(body),
      (rows) => rows.length > 0 && rows.every((row) => row.processed_at !== null),
    );

  beforeAll(async () => {
    graph = await startGraphStandIn();
    graph.addAccount({ wabaId: WABA, name: 'Acme Support' });
    graph.addNumber({
      phoneNumberId: PHONE_NUMBER_ID,
      wabaId: WABA,
      displayPhoneNumber: '+1 555-078-3881',
      verifiedName: 'Acme',
      status: 'CONNECTED',
      messagingLimitTier: 'TIER_1K',
    });
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      // A webhook for a number nobody connected is noted at once (the wait has its own test).
      WHATSAPP_UNKNOWN_NUMBER_GRACE_SECONDS: '0',
    });
    url = `${platform.base}/webhooks/whatsapp`;
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    // Connected through the workspace API: its number routes the webhooks below.
    const connected = await call(
      platform.base,
      'POST',
      `/workspaces/${acme.workspace.id}/connectors`,
      {
        headers: { authorization: `AccessKey ${acme.access_key.secret}` },
        body: {
          connectorTemplateRef: 'whatsapp',
          name: 'Support',
          arguments: { wabaId: WABA, phoneId: PHONE_NUMBER_ID, phoneNumber: PHONE },
        },
      },
    );
    expect(connected.status).toBe(201);
    number = graph.webhookNumber(PHONE_NUMBER_ID);
    numberId = (
      await platform.db.query<{ id: string }>(
        'SELECT id FROM sms_whatsapp.whatsapp_numbers WHERE phone_number_id = $1',
        [PHONE_NUMBER_ID],
      )
    ).rows[0].id;
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
    await graph?.stop();
  });

  describe('GET /webhooks/whatsapp (the subscription challenge)', () => {
    const challenge = (query: Record<string, string>) =>
      fetch(`${url}?${new URLSearchParams(query).toString()}`);

    it('echoes hub.challenge as text/plain when hub.verify_token matches', async () => {
      const response = await challenge({
        'hub.mode': 'subscribe',
        'hub.verify_token': VERIFY_TOKEN,
        'hub.challenge': '1158201444',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('1158201444');
    });

    it('answers 403 in the envelope to a wrong or missing token, or another mode', async () => {
      for (const [query, code] of [
        [{ 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong', 'hub.challenge': '1' }, 'E03010'],
        [{ 'hub.mode': 'subscribe', 'hub.challenge': '1' }, 'E03010'],
        [
          { 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' },
          'E03011',
        ],
        [{}, 'E03011'],
      ] as const) {
        const response = await challenge(query);
        expect(response.status).toBe(403);
        const body = (await response.json()) as { error: { code: string; request_id: string } };
        expect(body.error.code).toBe(code);
        expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
      }
    });
  });

  describe('POST /webhooks/whatsapp (signed webhooks)', () => {
    it('answers 401 to a missing or wrong signature and records nothing', async () => {
      const before = await inboxCount();
      const status = graph.statusPayload({
        ...number,
        wamid: 'wamid.unsigned',
        status: 'delivered',
        recipient: '16505551234',
      });
      const unsigned = await graph.postWebhook(url, status, {
        appSecret: APP_SECRET,
        unsigned: true,
      });
      const forged = await graph.postWebhook(url, status, {
        appSecret: APP_SECRET,
        badSignature: true,
      });
      expect([unsigned.status, forged.status]).toEqual([401, 401]);
      expect([unsigned.body, forged.body].map((text) => JSON.parse(text).error.code)).toEqual([
        'E02010',
        'E02011',
      ]);
      const body = payload('account_update', { event: 'VERIFIED_ACCOUNT' });
      const cases: Array<[Record<string, string>, string]> = [
        [{}, 'E02010'],
        [{ 'x-hub-signature-256': sign(body, 'another-secret') }, 'E02011'],
        [{ 'x-hub-signature-256': sign(`${body} `) }, 'E02011'],
        [{ 'x-hub-signature-256': sign(body).replace('sha256=', 'sha1=') }, 'E02011'],
        [{ 'x-hub-signature-256': 'sha256=' }, 'E02011'],
      ];
      for (const [headers, code] of cases) {
        const response = await post(body, headers);
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
      }
      expect(await inboxCount()).toBe(before);
    });

    it('records a signed webhook byte for byte before answering 200', async () => {
      // Meta's JSON escapes non-ASCII; the signature is over these exact bytes, spacing included.
      const body = `{"object": "whatsapp_business_account", "entry": [{"id": "${WABA}", "changes": [{"field": "account_update", "value": {"event": "VERIFIED_ACCOUNT", "note": "caf\\u00e9 é"}}]}]}`;
      const response = await postSigned(body);
      expect(response.status).toBe(200);
      const rows = await inboxRow(body);
      expect(rows).toHaveLength(1);
      expect(rows[0].body).toBe(body);
    });

    it('takes the body whatever its Content-Type says, or without one: the signature decides', async () => {
      const body = payload('account_update', { event: 'VERIFIED_ACCOUNT', via: 'no content type' });
      // A byte array body: fetch sends no Content-Type at all.
      const bare = await fetch(url, {
        method: 'POST',
        headers: { 'x-hub-signature-256': sign(body) },
        body: new TextEncoder().encode(body),
      });
      expect(bare.status).toBe(200);
      const unsigned = await fetch(url, { method: 'POST', body: new TextEncoder().encode(body) });
      expect(unsigned.status).toBe(401);
      expect(await inboxRow(body)).toHaveLength(1);
    });

    it('refuses a signed body that is not a JSON object with 400, recording nothing', async () => {
      const before = await inboxCount();
      for (const body of ['not json', '[1,2]', '"text"', Buffer.from([0xff, 0xfe, 0x7b, 0x7d])]) {
        const response = await post(body, { 'x-hub-signature-256': sign(body) });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('E01090');
      }
      expect(await inboxCount()).toBe(before);
    });

    it('answers 413 to a body over the limit', async () => {
      const body = payload('account_update', { pad: 'x'.repeat(1_100_000) });
      const response = await postSigned(body);
      expect(response.status).toBe(413);
    });

    it('keeps a webhook of another object, or for a number nobody connected, as processed with a note', async () => {
      const page = JSON.stringify({ object: 'page', entry: [] });
      const stranger = JSON.stringify(
        graph.statusPayload({
          wabaId: WABA,
          phoneNumberId: '999999999',
          displayPhoneNumber: '15550000000',
          wamid: 'wamid.stranger',
          status: 'delivered',
          recipient: '16505551234',
        }),
      );
      expect((await postSigned(page)).status).toBe(200);
      expect((await postSigned(stranger)).status).toBe(200);
      expect((await processed(page))[0].error).toMatch(/object "page"/);
      expect((await processed(stranger))[0].error).toMatch(/999999999 is not connected/);
    });
  });

  describe('processing', () => {
    it('applies a quality update once however often Meta retries it', async () => {
      const body = payload('phone_number_quality_update', {
        display_phone_number: '15550783881',
        event: 'FLAGGED',
        current_limit: 'TIER_10K',
      });
      const seq = await lastNumberEvent();
      for (let i = 0; i < 3; i++) expect((await postSigned(body)).status).toBe(200);
      const rows = await processed(body);
      expect(rows).toHaveLength(3);
      expect(rows.every((row) => row.error === null)).toBe(true);
      const number = await platform.db.query(
        'SELECT status, messaging_limit FROM sms_whatsapp.whatsapp_numbers WHERE id = $1',
        [numberId],
      );
      expect(number.rows[0]).toEqual({ status: 'flagged', messaging_limit: 'tier_10k' });
      const events = await platform.db.query(
        `SELECT type, metadata FROM sms_whatsapp.whatsapp_number_events
         WHERE number_id = $1 AND seq > $2 ORDER BY seq`,
        [numberId, seq],
      );
      expect(events.rows).toEqual([
        {
          type: 'whatsapp_number.messaging_limit_updated',
          metadata: { from: 'tier_1k', to: 'tier_10k', trigger: 'flagged' },
        },
        {
          type: 'whatsapp_number.status_changed',
          metadata: { from: 'connected', to: 'flagged', reason: 'quality_flagged' },
        },
      ]);
    });

    it('applies a status once when Meta posts the same webhook twice', async () => {
      const wamid = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA';
      // A message sent earlier (its send is the messages area's): outbound, sent, with Meta's wamid.
      await platform.db.query(
        `INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status, number_id,
           business_phone, contact_phone, content_kind, content, provider_message_id, created_at,
           sent_at, status_at)
         VALUES ('wam_twice', $1, 'outbound', 'sent', $2, $3, '+16505551234', 'text',
           '{"text":{"body":"hi"}}', $4, now(), now(), now())`,
        [acme.workspace.id, numberId, PHONE, wamid],
      );
      const delivered = graph.statusPayload({
        ...number,
        wamid,
        status: 'delivered',
        recipient: '16505551234',
      });
      for (let i = 0; i < 2; i++)
        expect((await graph.postWebhook(url, delivered, { appSecret: APP_SECRET })).status).toBe(
          200,
        );
      const rows = await processed(JSON.stringify(delivered));
      expect(rows).toHaveLength(2);
      expect(rows.map((row) => row.error)).toEqual([null, null]);
      const message = await platform.db.query(
        `SELECT status, delivered_at IS NOT NULL AS delivered FROM sms_whatsapp.whatsapp_messages
         WHERE id = 'wam_twice'`,
      );
      expect(message.rows[0]).toEqual({ status: 'delivered', delivered: true });
      const events = await platform.db.query(
        `SELECT type, count(*)::int AS n FROM sms_whatsapp.whatsapp_message_events
         WHERE message_id = 'wam_twice' GROUP BY type`,
      );
      expect(events.rows.length).toBeGreaterThan(0);
      expect(events.rows.every((row: { n: number }) => row.n === 1)).toBe(true);
    });

    it("fails a reaction of ours Meta reports failed, once, keeping Meta's code", async () => {
      const wamid = 'wamid.reaction-of-ours';
      await platform.db.query(
        `INSERT INTO sms_whatsapp.whatsapp_reaction_events (id, workspace_id, message_id, emoji,
           status, direction, from_address, provider_message_id, occurred_at)
         VALUES ('wre_ours', $1, 'wam_twice', '👍', 'sent', 'outbound', $2::jsonb, $3, now())`,
        [acme.workspace.id, JSON.stringify({ phone_number: PHONE }), wamid],
      );
      const failed = graph.statusPayload({
        ...number,
        wamid,
        status: 'failed',
        recipient: '16505551234',
        errors: [{ code: 131026, title: 'Message undeliverable' }],
      });
      for (let i = 0; i < 2; i++)
        expect((await graph.postWebhook(url, failed, { appSecret: APP_SECRET })).status).toBe(200);
      await processed(JSON.stringify(failed));
      const reaction = await platform.db.query(
        `SELECT status, error FROM sms_whatsapp.whatsapp_reaction_events WHERE id = 'wre_ours'`,
      );
      expect(reaction.rows[0]).toMatchObject({
        status: 'failed',
        error: { code: 'undeliverable', meta_error_code: '131026' },
      });
    });

    it('records an inbound message once when Meta posts it twice', async () => {
      const inbound = graph.inboundTextPayload({
        ...number,
        from: '16505551234',
        text: 'Is my order on its way?',
      });
      for (let i = 0; i < 2; i++)
        expect((await graph.postWebhook(url, inbound, { appSecret: APP_SECRET })).status).toBe(200);
      const rows = await processed(JSON.stringify(inbound));
      expect(rows.map((row) => row.error)).toEqual([null, null]);
      const wamid = (inbound.entry[0].changes[0].value as { messages: Array<{ id: string }> })
        .messages[0].id;
      const stored = await platform.db.query(
        `SELECT workspace_id FROM sms_whatsapp.whatsapp_messages
         WHERE direction = 'inbound' AND provider_message_id = $1`,
        [wamid],
      );
      expect(stored.rows).toEqual([{ workspace_id: acme.workspace.id }]);
    });

    it('applies an account update: the ban state Meta reports', async () => {
      const body = payload('account_update', {
        event: 'DISABLED_UPDATE',
        ban_info: { waba_ban_state: ['SCHEDULE_FOR_DISABLE'], waba_ban_date: 'January 31, 2027' },
      });
      expect((await postSigned(body)).status).toBe(200);
      await processed(body);
      const account = await platform.db.query(
        'SELECT status, ban FROM sms_whatsapp.whatsapp_business_accounts WHERE waba = $1',
        [WABA],
      );
      expect(account.rows[0].ban).toEqual({
        waba_ban_state: ['SCHEDULE_FOR_DISABLE'],
        waba_ban_date: 'January 31, 2027',
      });
    });
  });

  it('never answers a 5xx, whatever body and signature arrive', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
          fc.json().map((text) => Buffer.from(text)),
        ),
        fc.oneof(
          fc.constant<'right' | 'none'>('right'),
          fc.constant<'right' | 'none'>('none'),
          fc.string({ maxLength: 80 }),
        ),
        fc.constantFrom('application/json', 'text/plain', 'application/octet-stream'),
        async (body, signature, contentType) => {
          const headers: Record<string, string> = { 'content-type': contentType };
          if (signature === 'right') headers['x-hub-signature-256'] = sign(body);
          else if (signature !== 'none')
            headers['x-hub-signature-256'] = encodeURIComponent(signature);
          const response = await post(body, headers);
          await response.arrayBuffer();
          expect(response.status).toBeLessThan(500);
          expect([200, 400, 401]).toContain(response.status);
        },
      ),
      { numRuns: 150 },
    );
  });
});
