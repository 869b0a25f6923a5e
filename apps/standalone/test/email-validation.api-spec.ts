import { BirdClient, BirdPayloadTooLargeError, BirdValidationError } from '@messagebird/sdk';
import { call, createWorkspace } from '@switchboard/testing';
import type { ApiResponse, CreatedWorkspace } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

interface Envelope {
  error: {
    code: string;
    type: string;
    message: string;
    details?: Array<{ param: string; message: string }>;
  };
}

const params = (response: ApiResponse) =>
  ((response.body as unknown as Envelope).error.details ?? []).map((detail) => detail.param);
const errorOf = (response: ApiResponse) => (response.body as unknown as Envelope).error;

const valid = {
  from: 'hello@onboarding.localhost',
  to: ['jane@example.com'],
  subject: 'Hello',
  html: '<p>Hello</p>',
};
const MESSAGE_ID = 'em_0000000000000000000000000a';

/**
 * The send checks the gateway answers itself, before anything reaches the email service: 422
 * naming every field (with the item index in a batch), E01017 for features this deployment
 * lacks, 413 for bodies and messages over 20 MB, and the list and path checks. Nothing here
 * is stored: the service's answers are the email messages suite's.
 */
describe('email send validation through the gateway', () => {
  let platform: TestPlatform;
  let base: string;
  let acme: CreatedWorkspace;
  let bird: BirdClient;
  const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
    call(base, method, path, { token: acme.api_key.secret, ...options });
  /** Messages the email service stored (none of these requests may reach it). */
  async function storedMessages(): Promise<number> {
    const exists = await platform.db.query<{ name: string | null }>(
      "SELECT to_regclass('email.messages')::text AS name",
    );
    if (!exists.rows[0].name) return 0;
    const { rows } = await platform.db.query<{ count: string }>(
      'SELECT count(*) FROM email.messages',
    );
    return Number(rows[0].count);
  }

  beforeAll(async () => {
    platform = await startTestPlatform({
      RATE_LIMITS: 'email_send=100000,email_batch=100000,api_list=100000,read=100000,write=100000',
    });
    base = platform.base;
    acme = await createWorkspace(base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: base, maxRetries: 0 });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  describe('POST /v1/email/messages', () => {
    it('answers 422 E01001 listing every invalid field at once', async () => {
      const response = await api('POST', '/v1/email/messages', {
        body: {
          from: 'not an address',
          to: ['ok@example.com', 'Jane <jane@example>', { email: 'x@example.com', name: 'a\nb' }],
          subject: 'x'.repeat(999),
          html: '<p>Hi</p>',
          headers: { Bcc: 'spy@example.com', 'X-Inject': 'a\r\nBcc: spy@example.com' },
          tags: [{ name: 'bad tag', value: 'v' }],
          attachments: [{ filename: 'run.exe', content: 'TVqQ' }],
          scheduled_at: new Date(Date.now() + 5_000).toISOString(),
        },
      });
      expect(response.status).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'E01001', type: 'validation_error' });
      expect(params(response)).toEqual([
        'from',
        'to[1]',
        'to[2].name',
        'subject',
        'tags[0].name',
        'headers.Bcc',
        'headers.X-Inject',
        'attachments[0].filename',
        'scheduled_at',
      ]);
      expect(await storedMessages()).toBe(0);
    });

    it('refuses unknown fields by name, workspace_user_emails among them', async () => {
      const response = await api('POST', '/v1/email/messages', {
        body: { ...valid, workspace_user_emails: ['spy@example.com'], priority: 'high' },
      });
      expect(response.status).toBe(422);
      expect(params(response)).toEqual(['workspace_user_emails', 'priority']);
    });

    it('answers a template the workspace lacks with 422 E01128 naming template.slug, through the SDK too', async () => {
      const template = { from: valid.from, to: valid.to, template: { slug: 'welcome' } };
      const response = await api('POST', '/v1/email/messages', { body: template });
      expect(response.status).toBe(422);
      expect(errorOf(response)).toMatchObject({
        code: 'E01128',
        type: 'validation_error',
        details: [{ param: 'template.slug' }],
      });
      const error = await bird.email.send(template).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BirdValidationError);
      expect(error).toMatchObject({ statusCode: 422, code: 'E01128' });
      expect(await storedMessages()).toBe(0);
    });

    it('answers a dedicated IP pool with E01017 naming ip_pool_id', async () => {
      const response = await api('POST', '/v1/email/messages', {
        body: { ...valid, ip_pool_id: 'ipp_0000000000000000000000000a' },
      });
      expect(response.status).toBe(422);
      expect(errorOf(response)).toMatchObject({
        code: 'E01017',
        details: [{ param: 'ip_pool_id' }],
      });
    });

    it('answers 413 E01019 when the generated message would pass 20 MB though the body does not', async () => {
      // 20.5 million base64 characters: under the 20 MiB body limit, over it once MIME-wrapped.
      const content = 'QUFB'.repeat(20_500_000 / 4);
      const response = await api('POST', '/v1/email/messages', {
        body: { ...valid, attachments: [{ filename: 'big.pdf', content }] },
      });
      expect(response.status).toBe(413);
      expect(errorOf(response)).toMatchObject({
        code: 'E01019',
        type: 'payload_too_large_error',
        param: 'body',
        message: expect.stringContaining('20 MB'),
      });
      expect(errorOf(response)).not.toHaveProperty('details');
    });

    it('answers 413 E01003 for a body over 20 MB', async () => {
      const content = 'QUFB'.repeat(21_000_000 / 4);
      const error = await bird.email
        .send({ ...valid, attachments: [{ filename: 'big.pdf', content }] })
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BirdPayloadTooLargeError);
      expect(error).toMatchObject({ statusCode: 413, code: 'E01003' });
    });

    it('answers 413 E01003 above 1 MB on routes without the large limit', async () => {
      const response = await api('POST', `/v1/email/messages/${MESSAGE_ID}/cancel`, {
        rawBody: JSON.stringify({ pad: 'x'.repeat(1_100_000) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(413);
      expect(errorOf(response).code).toBe('E01003');
    });

    it('lets a read key send nothing (403 before validation)', async () => {
      const key = await call<{ secret: string }>(
        base,
        'POST',
        `/admin/v1/workspaces/${acme.workspace.id}/api-keys`,
        { token: TEST_ADMIN_TOKEN, body: { role: 'read' } },
      );
      const response = await call(base, 'POST', '/v1/email/messages', {
        token: key.body.secret,
        body: { ...valid, from: 'bad' },
      });
      expect(response.status).toBe(403);
    });
  });

  describe('POST /v1/email/batches', () => {
    it('validates every item before anything is forwarded, naming each with its index', async () => {
      const response = await api('POST', '/v1/email/batches', {
        body: {
          messages: [
            valid,
            valid,
            valid,
            { ...valid, from: 'nobody' },
            valid,
            { ...valid, to: ['a@example.com', 'b@'] },
            { ...valid, cc: 'x@example.com', extra: 1 },
          ],
        },
      });
      expect(response.status).toBe(422);
      expect(errorOf(response).code).toBe('E01001');
      expect(params(response)).toEqual([
        'messages[3].from',
        'messages[5].to[1]',
        'messages[6].extra',
        'messages[6].cc',
      ]);
      expect(await storedMessages()).toBe(0);
    });

    it('takes 1 to 100 messages', async () => {
      for (const messages of [[], Array(101).fill(valid)]) {
        const response = await api('POST', '/v1/email/batches', { body: { messages } });
        expect(response.status).toBe(422);
        expect(params(response)).toEqual(['messages']);
      }
    });

    it('refuses a bare array (the SDK wraps it in {messages})', async () => {
      const response = await api('POST', '/v1/email/batches', { body: [valid] });
      expect(response.status).toBe(422);
      expect(params(response)).toEqual(['body']);
    });

    it('reports a batch item through the SDK as a validation error with its details', async () => {
      const error = await bird.email
        .sendBatch({ messages: [valid, { ...valid, subject: '' }] })
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BirdValidationError);
      expect((error as BirdValidationError).details).toEqual([
        { param: 'messages[1].subject', message: 'must not be empty' },
      ]);
    });

    it('answers 413 E01019 naming the message over 20 MB', async () => {
      const content = 'QUFB'.repeat(20_500_000 / 4);
      const response = await api('POST', '/v1/email/batches', {
        body: { messages: [valid, { ...valid, attachments: [{ filename: 'a.pdf', content }] }] },
      });
      expect(response.status).toBe(413);
      expect(errorOf(response)).toMatchObject({ code: 'E01019', param: 'messages[1]' });
      expect(errorOf(response)).not.toHaveProperty('details');
    });
  });

  describe('reads', () => {
    it('refuses include_total and bad filters on the list by name', async () => {
      const response = await api(
        'GET',
        '/v1/email/messages?include_total=true&status=sent&tag=a%20b&to=nobody&created_after=yesterday',
      );
      expect(response.status).toBe(422);
      expect(params(response).sort()).toEqual(
        ['created_after', 'include_total', 'status', 'tag', 'to'].sort(),
      );
    });

    it('answers a malformed message id 404 E04007 on every message route', async () => {
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', '/cancel'],
        ['GET', '/recipients'],
        ['GET', '/content'],
        ['GET', '/events'],
      ]) {
        const response = await api(method, `/v1/email/messages/not-an-id${suffix}`);
        expect({ suffix, status: response.status, code: errorOf(response).code }).toEqual({
          suffix,
          status: 404,
          code: 'E04007',
        });
      }
    });

    it('refuses an unknown event type and unknown query parameters', async () => {
      const events = await api('GET', `/v1/email/messages/${MESSAGE_ID}/events?type=opened`);
      expect(events.status).toBe(422);
      expect(params(events)).toEqual(['type']);
      const content = await api('GET', `/v1/email/messages/${MESSAGE_ID}/content?format=html`);
      expect(content.status).toBe(422);
      expect(params(content)).toEqual(['format']);
    });
  });
});
