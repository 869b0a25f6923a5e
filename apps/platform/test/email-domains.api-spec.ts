import {
  BirdClient,
  BirdConflictError,
  BirdNotFoundError,
  BirdPermissionError,
  BirdValidationError,
} from '@messagebird/sdk';
import { call, createWorkspace, startDnsServer } from '@switchboard/testing';
import type { CreatedWorkspace, TestDnsServer } from '@switchboard/testing';
import type { Client } from 'pg';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

const HELO = 'mta.switchboard.test';

type Domain = Awaited<ReturnType<BirdClient['domains']['get']>>;
type DnsRecord = Domain['dns_records'][number];

const recordOf = (domain: Domain, purpose: DnsRecord['purpose'], state = 'active'): DnsRecord => {
  const found = domain.dns_records.find((r) => r.purpose === purpose && r.state === state);
  if (!found) throw new Error(`no ${state} ${purpose} record on ${domain.domain}`);
  return found;
};

describe('sending domains through the gateway', () => {
  let platform: TestPlatform;
  let dns: TestDnsServer;
  let db: Client;
  let base: string;
  let acme: CreatedWorkspace;
  let bird: BirdClient;
  let other: BirdClient;
  let reader: BirdClient;
  let serial = 0;
  /** A fresh name per test, so tests do not see each other's domains or DNS answers. */
  const fresh = (label: string) => `${label}.acme${(serial += 1)}.test`;

  /** The `domain.*` events written to the email outbox for one domain, oldest first. */
  const eventsOf = async (domainId: string) =>
    (
      await db.query<{ type: string; payload: { type: string; timestamp: string; data: unknown } }>(
        "SELECT type, payload FROM email.outbox WHERE payload->'data'->>'domain_id' = $1 ORDER BY seq",
        [domainId],
      )
    ).rows.map((row) => row.payload);

  /** Publishes the domain's records (or the ones given) in the test DNS server. */
  const publish = (domain: Domain, records = domain.dns_records) => {
    for (const record of records) dns.set(record.host, [{ type: 'TXT', data: record.value }]);
  };

  beforeAll(async () => {
    dns = await startDnsServer();
    platform = await startTestPlatform({
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '300',
      EMAIL_HELO_NAME: HELO,
      RATE_LIMITS: 'api_list=100000,read=100000,write=100000',
    });
    base = platform.base;
    db = platform.db;
    acme = await createWorkspace(base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    const globex = await createWorkspace(base, TEST_ADMIN_TOKEN, { name: 'Globex' });
    const readKey = await call<{ secret: string }>(
      base,
      'POST',
      `/admin/v1/workspaces/${acme.workspace.id}/api-keys`,
      { token: TEST_ADMIN_TOKEN, body: { role: 'read' } },
    );
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: base, maxRetries: 0 });
    other = new BirdClient({ apiKey: globex.api_key.secret, baseUrl: base, maxRetries: 0 });
    reader = new BirdClient({ apiKey: readKey.body.secret, baseUrl: base, maxRetries: 0 });
  });

  afterAll(async () => {
    await platform?.stop();
    await dns?.stop();
  });

  describe('create', () => {
    it('registers a domain with a 2048-bit DKIM key and the DKIM, return-path and DMARC records to publish', async () => {
      const name = fresh('mail');
      const { data: domain, response } = await bird.domains
        .create({ domain: `  ${name.toUpperCase()}. ` })
        .withResponse();
      expect(response.status).toBe(201);
      expect(domain).toMatchObject({
        id: expect.stringMatching(/^dom_[0-9a-z]{26}$/),
        workspace_id: acme.workspace.id,
        domain: name,
        vendor: 'other',
        status: 'pending',
        settings: { click_tracking: false, open_tracking: false },
        dkim: { mode: 'txt', selector: expect.stringMatching(/^sb[0-9a-z]{6}$/), key_size: 2048 },
        capabilities: {
          sending: { status: 'pending', domain: name },
          return_path: { status: 'pending', domain: `send.${name}` },
          dmarc: { status: 'pending', domain: null },
          tracking: { status: 'not_configured' },
        },
        last_checked_at: null,
        verified_at: null,
      });
      const { selector } = domain.dkim;
      expect(domain.dns_records).toEqual([
        {
          type: 'TXT',
          name: `${selector}._domainkey.mail`,
          host: `${selector}._domainkey.${name}`,
          value: expect.stringMatching(
            /^v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA/,
          ),
          purpose: 'dkim',
          state: 'active',
          optional: false,
          status: 'pending',
          error: null,
          safe_to_remove: null,
        },
        {
          type: 'TXT',
          name: 'send.mail',
          host: `send.${name}`,
          value: `v=spf1 a:${HELO} ~all`,
          purpose: 'return_path',
          state: 'active',
          optional: false,
          status: 'pending',
          error: null,
          safe_to_remove: null,
        },
        {
          type: 'TXT',
          name: '_dmarc.mail',
          host: `_dmarc.${name}`,
          value: 'v=DMARC1; p=none;',
          purpose: 'dmarc',
          state: 'active',
          optional: false,
          status: 'pending',
          error: null,
          safe_to_remove: null,
        },
      ]);
      expect(JSON.stringify(domain)).not.toContain('PRIVATE KEY');
      const { rows } = await db.query<{ sealed: string }>(
        'SELECT dkim_private_key_sealed AS sealed FROM email.domains WHERE id = $1',
        [domain.id],
      );
      expect(rows[0].sealed).toMatch(/^v1\./);
      expect(rows[0].sealed).not.toContain('PRIVATE');
    });

    it('takes a return-path name', async () => {
      const domain = await bird.domains.create({
        domain: fresh('mail'),
        return_path: { name: 'Bounces' },
      });
      expect(recordOf(domain, 'return_path').host).toBe(`bounces.${domain.domain}`);
    });

    it('answers 409 E06002 for a name the workspace already has, however it is written', async () => {
      const name = fresh('dup');
      await bird.domains.create({ domain: name });
      const error = await bird.domains
        .create({ domain: `${name.toUpperCase()}.` })
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BirdConflictError);
      expect(error).toMatchObject({ statusCode: 409, code: 'E06002' });
      // Another workspace may register the same name (with its own key).
      await expect(other.domains.create({ domain: name })).resolves.toMatchObject({
        domain: name,
      });
    });

    it.each([
      ['an IP address', '192.0.2.10'],
      ['a single label', 'localhost'],
      ['a URL', 'https://mail.example.com/'],
      ['an empty label', 'mail..example.com'],
      ['a numeric top level', 'mail.example.123'],
      ['a name over 253 characters', `${'abcdefghi.'.repeat(25)}example.com`],
      ['the onboarding domain', 'onboarding.localhost'],
    ])('refuses %s with 422 naming domain', async (_, name) => {
      const response = await call(base, 'POST', '/v1/email/domains', {
        token: acme.api_key.secret,
        body: { domain: name },
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({
        error: { type: 'validation_error', code: 'E01001', details: [{ param: 'domain' }] },
      });
    });

    it('refuses a body of the wrong shape, naming the field', async () => {
      const response = await call(base, 'POST', '/v1/email/domains', {
        token: acme.api_key.secret,
        body: { domain: 'mail.example.com', return_path: 'bounces', color: 'red' },
      });
      expect(response.status).toBe(422);
      const params = (
        response.body as { error: { details: Array<{ param: string }> } }
      ).error.details.map((d) => d.param);
      expect(params).toEqual(expect.arrayContaining(['return_path', 'color']));
    });

    it.each([
      ['tracking', { tracking: { name: 'links' } }],
      ['dkim.mode', { dkim: { mode: 'delegated' as const } }],
      ['settings.open_tracking', { settings: { open_tracking: true } }],
    ])(
      'refuses %s, which this deployment cannot do, with 422 E01017 naming it',
      async (param, extra) => {
        const domain = fresh('mail');
        const response = await call(base, 'POST', '/v1/email/domains', {
          token: acme.api_key.secret,
          body: { domain, ...extra },
        });
        expect(response.status).toBe(422);
        expect(response.body).toMatchObject({
          error: { type: 'validation_error', code: 'E01017', details: [{ param }] },
        });
        const error = await bird.domains.create({ domain, ...extra }).catch((err: unknown) => err);
        expect(error).toBeInstanceOf(BirdValidationError);
        expect(error).toMatchObject({ statusCode: 422, code: 'E01017' });
        expect((await bird.domains.list({ name: domain })).data).toEqual([]);
      },
    );

    it('lets a read key read but not create (403)', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      await expect(reader.domains.get(domain.id)).resolves.toMatchObject({ id: domain.id });
      const error = await reader.domains.create({ domain: fresh('mail') }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BirdPermissionError);
      expect(error).toMatchObject({ statusCode: 403 });
      const verify = await reader.domains.verify(domain.id).catch((e: unknown) => e);
      expect(verify).toBeInstanceOf(BirdPermissionError);
    });
  });

  describe('read and delete', () => {
    it('answers 404 E04005 for an unknown id, a malformed one, and another workspace’s domain', async () => {
      const domain = await bird.domains.create({ domain: fresh('mine') });
      for (const id of ['dom_00000000000000000000000000', 'nonsense', domain.id]) {
        const client = id === domain.id ? other : bird;
        const error = await client.domains.get(id).catch((err: unknown) => err);
        expect(error).toBeInstanceOf(BirdNotFoundError);
        expect(error).toMatchObject({ statusCode: 404, code: 'E04005' });
      }
      for (const attempt of [
        other.domains.verify(domain.id),
        other.domains.update(domain.id, { settings: { open_tracking: false } }),
        other.domains.delete(domain.id),
      ])
        await expect(attempt).rejects.toMatchObject({ statusCode: 404, code: 'E04005' });
      await expect(bird.domains.get(domain.id)).resolves.toMatchObject({ id: domain.id });
    });

    it('deletes with 204; the domain is gone afterwards', async () => {
      const domain = await bird.domains.create({ domain: fresh('gone') });
      const response = await call(base, 'DELETE', `/v1/email/domains/${domain.id}`, {
        token: acme.api_key.secret,
      });
      expect(response.status).toBe(204);
      await expect(bird.domains.get(domain.id)).rejects.toMatchObject({ code: 'E04005' });
      await expect(bird.domains.delete(domain.id)).rejects.toMatchObject({ code: 'E04005' });
      const { rows } = await db.query('SELECT 1 FROM email.domains WHERE id = $1', [domain.id]);
      expect(rows).toHaveLength(0);
    });
  });

  describe('list', () => {
    let names: string[];
    let lister: BirdClient;

    beforeAll(async () => {
      const ws = await createWorkspace(base, TEST_ADMIN_TOKEN, { name: 'Lister' });
      lister = new BirdClient({ apiKey: ws.api_key.secret, baseUrl: base, maxRetries: 0 });
      names = ['b.list.test', 'a.list.test', 'c.other.test', 'd.list.test', 'e.list.test'];
      for (const domain of names) await lister.domains.create({ domain });
    });

    it('pages newest first with keyset cursors and the total on request', async () => {
      const first = await lister.domains.list({ limit: 2, include_total: true });
      expect(first.data.map((d) => d.domain)).toEqual(['e.list.test', 'd.list.test']);
      expect(first.total).toBe(5);
      expect(first.next_cursor).toEqual(expect.any(String));
      expect(first.prev_cursor).toBeNull();
      const second = await lister.domains.list({ limit: 2, starting_after: first.next_cursor! });
      expect(second.data.map((d) => d.domain)).toEqual(['c.other.test', 'a.list.test']);
      const third = await lister.domains.list({ limit: 2, starting_after: second.next_cursor! });
      expect(third.data.map((d) => d.domain)).toEqual(['b.list.test']);
      expect(third.next_cursor).toBeNull();
      const back = await lister.domains.list({ limit: 2, ending_before: third.prev_cursor! });
      expect(back.data.map((d) => d.domain)).toEqual(['c.other.test', 'a.list.test']);
      const all: string[] = [];
      for await (const domain of lister.domains.list({ limit: 2 })) all.push(domain.domain);
      expect(all).toEqual([...names].reverse());
    });

    it('filters by a case-insensitive substring of the name and sorts by name', async () => {
      const page = await lister.domains.list({ name: 'LIST', sort: 'name', include_total: true });
      expect(page.data.map((d) => d.domain)).toEqual([
        'a.list.test',
        'b.list.test',
        'd.list.test',
        'e.list.test',
      ]);
      expect(page.total).toBe(4);
      const desc = await lister.domains.list({
        name: 'list',
        sort: 'name',
        order: 'desc',
        limit: 3,
      });
      expect(desc.data.map((d) => d.domain)).toEqual(['e.list.test', 'd.list.test', 'b.list.test']);
      const rest = await lister.domains.list({
        name: 'list',
        sort: 'name',
        order: 'desc',
        limit: 3,
        starting_after: desc.next_cursor!,
      });
      expect(rest.data.map((d) => d.domain)).toEqual(['a.list.test']);
      const none = await lister.domains.list({ name: '%' });
      expect(none.data).toEqual([]);
    });

    it('refuses an unknown sort with 422 naming sort, and a cursor of another filter', async () => {
      const sort = await call(base, 'GET', '/v1/email/domains?sort=status', {
        token: acme.api_key.secret,
      });
      expect(sort.status).toBe(422);
      expect(sort.body).toMatchObject({ error: { details: [{ param: 'sort' }] } });
      const first = await lister.domains.list({ limit: 1, name: 'list' });
      const mixed = await lister.domains
        .list({ limit: 1, name: 'other', starting_after: first.next_cursor! })
        .catch((err: unknown) => err);
      expect(mixed).toMatchObject({ statusCode: 422 });
    });
  });

  describe('verify', () => {
    it('fails a domain whose records are missing, saying per record what was not found', async () => {
      const domain = await bird.domains.create({ domain: fresh('bare') });
      const checked = await bird.domains.verify(domain.id);
      expect(checked.status).toBe('failed');
      expect(checked.last_checked_at).toEqual(expect.any(String));
      expect(checked.verified_at).toBeNull();
      expect(checked.updated_at).toBe(domain.updated_at);
      for (const record of checked.dns_records) {
        expect(record.status).toBe('failed');
        expect(record.error).toContain(`found at ${record.host}`);
      }
      expect(checked.capabilities).toMatchObject({
        sending: { status: 'failed' },
        return_path: { status: 'failed' },
        dmarc: { status: 'failed' },
      });
      expect(await bird.domains.get(domain.id)).toEqual(checked);
      expect(await eventsOf(domain.id)).toEqual([
        {
          type: 'domain.failed',
          timestamp: checked.last_checked_at,
          data: {
            domain_id: domain.id,
            domain: domain.domain,
            workspace_id: acme.workspace.id,
            failure_reason: expect.stringContaining(`dkim: no DKIM TXT record found at`),
          },
        },
      ]);
    });

    it('verifies the domain once the records are published (the DKIM key split in 255-character strings)', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      expect(recordOf(domain, 'dkim').value.length).toBeGreaterThan(255);
      publish(domain);
      const checked = await bird.domains.verify(domain.id);
      expect(checked.status).toBe('verified');
      expect(checked.verified_at).toEqual(checked.last_checked_at);
      expect(checked.dns_records.map((r) => [r.purpose, r.status, r.error])).toEqual([
        ['dkim', 'verified', null],
        ['return_path', 'verified', null],
        ['dmarc', 'verified', null],
      ]);
      expect(checked.capabilities).toMatchObject({
        sending: { status: 'verified' },
        return_path: { status: 'verified', domain: `send.${domain.domain}` },
        dmarc: { status: 'verified', domain: domain.domain },
      });
      // A later check that still matches keeps verified_at and writes no second event.
      const again = await bird.domains.verify(domain.id);
      expect(again.status).toBe('verified');
      expect(again.verified_at).toBe(checked.verified_at);
      expect(await eventsOf(domain.id)).toEqual([
        {
          type: 'domain.verified',
          timestamp: checked.verified_at,
          data: { domain_id: domain.id, domain: domain.domain, workspace_id: acme.workspace.id },
        },
      ]);
    });

    it('accepts extra SPF mechanisms and a DMARC policy on the parent domain', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      const parent = domain.domain.split('.').slice(1).join('.');
      publish(domain, [recordOf(domain, 'dkim')]);
      dns.set(recordOf(domain, 'return_path').host, [
        { type: 'TXT', data: 'unrelated=1' },
        { type: 'TXT', data: `v=spf1 include:relay.example.org a:${HELO} -all` },
      ]);
      dns.set(`_dmarc.${parent}`, [{ type: 'TXT', data: 'v=DMARC1; p=reject; adkim=s' }]);
      const checked = await bird.domains.verify(domain.id);
      expect(checked.status).toBe('verified');
      expect(checked.capabilities.dmarc).toMatchObject({ status: 'verified', domain: parent });
    });

    it('fails a wrong DKIM key, naming what it found', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      const stale = await bird.domains.create({ domain: fresh('mail') });
      publish(
        domain,
        domain.dns_records.filter((r) => r.purpose !== 'dkim'),
      );
      dns.set(recordOf(domain, 'dkim').host, [
        { type: 'TXT', data: recordOf(stale, 'dkim').value },
      ]);
      const checked = await bird.domains.verify(domain.id);
      expect(checked.status).toBe('failed');
      expect(recordOf(checked, 'dkim')).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('another public key'),
      });
      expect(recordOf(checked, 'return_path').status).toBe('verified');
    });

    it('fails an SPF record that does not authorise this platform', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      publish(domain);
      dns.set(recordOf(domain, 'return_path').host, [{ type: 'TXT', data: 'v=spf1 mx -all' }]);
      const checked = await bird.domains.verify(domain.id);
      expect(checked.status).toBe('failed');
      expect(recordOf(checked, 'return_path').error).toContain(`lacks a:${HELO}`);
    });

    it.each([
      ['answers SERVFAIL', 'servfail' as const],
      ['does not answer', 'silent' as const],
    ])('is a temporary failure, not failed, when the DNS server %s', async (_, mode) => {
      const domain = await bird.domains.create({ domain: fresh('flaky') });
      publish(domain);
      dns.set(recordOf(domain, 'dkim').host, mode);
      const checked = await bird.domains.verify(domain.id);
      expect(checked.status).toBe('temporary_failure');
      expect(recordOf(checked, 'dkim')).toMatchObject({
        status: 'pending',
        error: expect.stringContaining('not treated as missing'),
      });
      expect(checked.capabilities.sending.status).toBe('temporary_failure');
      expect(recordOf(checked, 'return_path').status).toBe('verified');
      expect(await eventsOf(domain.id)).toEqual([]);
    });

    it('keeps a verified domain verified through a DNS outage, and fails it when a record is removed', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      publish(domain);
      expect((await bird.domains.verify(domain.id)).status).toBe('verified');
      dns.set(recordOf(domain, 'dkim').host, 'servfail');
      const outage = await bird.domains.verify(domain.id);
      expect(outage.status).toBe('verified');
      expect(outage.capabilities.sending.status).toBe('verified');
      dns.set(recordOf(domain, 'dkim').host, 'nxdomain');
      const removed = await bird.domains.verify(domain.id);
      expect(removed.status).toBe('failed');
      expect((await eventsOf(domain.id)).map((event) => event.type)).toEqual([
        'domain.verified',
        'domain.failed',
      ]);
    });
  });

  describe('update', () => {
    it('changes only the fields sent; turning tracking off is accepted', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      const same = await bird.domains.update(domain.id, {
        settings: { click_tracking: false },
        tracking: null,
        inbound: { enabled: false },
        dkim: { mode: 'txt' },
      });
      expect(same).toEqual(domain);
    });

    it.each([
      ['settings.click_tracking', { settings: { click_tracking: true } }],
      ['settings.open_tracking', { settings: { open_tracking: true } }],
      ['tracking', { tracking: { name: 'links' } }],
      ['dkim.mode', { dkim: { mode: 'delegated' as const } }],
      ['inbound.enabled', { inbound: { enabled: true } }],
    ])('refuses %s with 422 E01017 naming it, changing nothing', async (param, patch) => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      const body = { ...patch, return_path: { name: 'other' } };
      const response = await call(base, 'PATCH', `/v1/email/domains/${domain.id}`, {
        token: acme.api_key.secret,
        body,
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({
        error: { type: 'validation_error', code: 'E01017', details: [{ param }] },
      });
      const error = await bird.domains.update(domain.id, body).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BirdValidationError);
      expect(error).toMatchObject({ statusCode: 422, code: 'E01017' });
      expect(await bird.domains.get(domain.id)).toEqual(domain);
    });

    it('replaces the return path of an unverified domain at once', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      const updated = await bird.domains.update(domain.id, { return_path: { name: 'bounce' } });
      expect(updated.dns_records.filter((r) => r.purpose === 'return_path')).toEqual([
        expect.objectContaining({ host: `bounce.${domain.domain}`, state: 'active' }),
      ]);
      expect(updated.capabilities.return_path.domain).toBe(`bounce.${domain.domain}`);
      expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(domain.updated_at));
      const invalid = await call(base, 'PATCH', `/v1/email/domains/${domain.id}`, {
        token: acme.api_key.secret,
        body: { return_path: { name: 'a.b' } },
      });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toMatchObject({ error: { details: [{ param: 'return_path.name' }] } });
    });

    it('stages a new return path on a verified domain and promotes it once its record verifies', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      publish(domain);
      await bird.domains.verify(domain.id);
      const staged = await bird.domains.update(domain.id, { return_path: { name: 'bounce' } });
      expect(staged.capabilities.return_path).toMatchObject({
        status: 'verified',
        domain: `send.${domain.domain}`,
        pending: { domain: `bounce.${domain.domain}`, status: 'pending' },
      });
      const pending = recordOf(staged, 'return_path', 'pending');
      expect(pending.host).toBe(`bounce.${domain.domain}`);

      // Not yet published: the staged record fails, the active one keeps the domain verified.
      const early = await bird.domains.verify(domain.id);
      expect(early.status).toBe('verified');
      expect(early.capabilities.return_path.pending?.status).toBe('failed');

      publish(staged, [pending]);
      const promoted = await bird.domains.verify(domain.id);
      expect(promoted.status).toBe('verified');
      expect(promoted.capabilities.return_path).toEqual({
        status: 'verified',
        domain: `bounce.${domain.domain}`,
      });
      expect(
        promoted.dns_records
          .filter((r) => r.purpose === 'return_path')
          .map((r) => [r.host, r.state, r.safe_to_remove]),
      ).toEqual([
        [`send.${domain.domain}`, 'deprecated', true],
        [`bounce.${domain.domain}`, 'active', null],
      ]);
    });
  });
});
