import {
  BirdClient,
  BirdConflictError,
  BirdNotFoundError,
  BirdPermissionError,
  BirdValidationError,
} from '@messagebird/sdk';
import { call, createWorkspace, publishedAs, startDnsServer } from '@switchboard/testing';
import type { CreatedWorkspace, TestDnsServer } from '@switchboard/testing';
import type { Client } from 'pg';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

const HELO = 'mta.switchboard.test';
/** EMAIL_RETURN_PATH_TARGET: where every return-path CNAME points. */
const RETURN_PATH_TARGET = 'rp.switchboard.test';

type Domain = Awaited<ReturnType<BirdClient['domains']['get']>>;
type DnsRecord = Domain['dns_records'][number];

const recordOf = (domain: Domain, purpose: DnsRecord['purpose'], state = 'active'): DnsRecord => {
  const found = domain.dns_records.find((r) => r.purpose === purpose && r.state === state);
  if (!found) throw new Error(`no ${state} ${purpose} record on ${domain.domain}`);
  return found;
};

/*
 * The values the SDK's types declare, typed by them: a value the SDK does not have fails to
 * compile. Every field of a response is checked against these and against the type comments.
 */
const DOMAIN_FIELDS = {
  required: ['id', 'workspace_id', 'domain', 'vendor', 'status', 'settings', 'dkim'],
  alsoRequired: ['capabilities', 'dns_records', 'created_at', 'updated_at'],
  optional: ['next', 'last_checked_at', 'verified_at'],
} as const satisfies Record<string, ReadonlyArray<keyof Domain>>;
const VENDORS = [
  'other',
  'cloudflare',
  'route53',
  'godaddy',
  'namecheap',
  'google',
  'azure',
  'digitalocean',
  'squarespace',
] as const satisfies ReadonlyArray<Domain['vendor']>;
const DOMAIN_STATUSES = [
  'pending',
  'verified',
  'failed',
  'temporary_failure',
  'rejected',
] as const satisfies ReadonlyArray<Domain['status']>;
type Capabilities = Domain['capabilities'];
type Capability = Capabilities['sending'];
const CAPABILITIES = [
  'sending',
  'return_path',
  'dmarc',
  'tracking',
  'inbound',
] as const satisfies ReadonlyArray<keyof Capabilities>;
const CAPABILITY_FIELDS = [
  'status',
  'domain',
  'pending',
  'reason',
] as const satisfies ReadonlyArray<keyof Capability>;
const CAPABILITY_STATUSES = [
  'pending',
  'verified',
  'warning',
  'failed',
  'temporary_failure',
  'not_configured',
] as const satisfies ReadonlyArray<Capability['status']>;
const PENDING_STATUSES = [
  'pending',
  'failed',
  'temporary_failure',
] as const satisfies ReadonlyArray<NonNullable<Capability['pending']>['status']>;
const RECORD_FIELDS = [
  'type',
  'name',
  'host',
  'value',
  'purpose',
  'state',
  'optional',
  'status',
  'error',
  'safe_to_remove',
] as const satisfies ReadonlyArray<keyof DnsRecord>;
/** "The DNS record type to publish, determined by purpose." */
const TYPE_OF_PURPOSE = {
  dkim: 'TXT',
  dmarc: 'TXT',
  return_path: 'CNAME',
  tracking: 'CNAME',
  inbound_mx: 'MX',
} as const satisfies Record<DnsRecord['purpose'], DnsRecord['type']>;
const RECORD_STATES = ['active', 'pending', 'deprecated'] as const satisfies ReadonlyArray<
  DnsRecord['state']
>;
const RECORD_STATUSES = [
  'pending',
  'verified',
  'warning',
  'failed',
] as const satisfies ReadonlyArray<DnsRecord['status']>;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Fails, listing every difference, when `domain` is not what the SDK's `Domain` describes. */
function expectSdkDomain(domain: Domain): void {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  const oneOf = (values: readonly unknown[], value: unknown, what: string) =>
    check(
      values.includes(value),
      `${what} ${JSON.stringify(value)} is none of ${values.join('|')}`,
    );
  const keysWithin = (value: object, allowed: readonly string[], what: string) => {
    for (const key of Object.keys(value))
      check(allowed.includes(key), `${what} has ${key}, which the SDK does not declare`);
  };

  const declared = [
    ...DOMAIN_FIELDS.required,
    ...DOMAIN_FIELDS.alsoRequired,
    ...DOMAIN_FIELDS.optional,
  ];
  keysWithin(domain, declared, 'Domain');
  for (const key of [...DOMAIN_FIELDS.required, ...DOMAIN_FIELDS.alsoRequired])
    check(key in domain, `Domain lacks ${key}`);
  check(/^dom_/.test(domain.id), `id ${domain.id} is not a dom_ id`);
  oneOf(VENDORS, domain.vendor, 'vendor');
  oneOf(DOMAIN_STATUSES, domain.status, 'status');
  check(
    typeof domain.settings.click_tracking === 'boolean' &&
      typeof domain.settings.open_tracking === 'boolean',
    'settings are not booleans',
  );
  keysWithin(domain.settings, ['click_tracking', 'open_tracking'], 'settings');
  keysWithin(domain.dkim, ['mode', 'selector', 'key_size'], 'dkim');
  oneOf(['txt', 'delegated'], domain.dkim.mode, 'dkim.mode');
  check(
    domain.dns_records.some(
      (r) => r.purpose === 'dkim' && r.host.startsWith(`${domain.dkim.selector}._domainkey.`),
    ),
    'no dkim record at the dkim selector',
  );
  for (const field of ['created_at', 'updated_at', 'last_checked_at', 'verified_at'] as const) {
    const value = domain[field];
    if (value !== null && value !== undefined)
      check(ISO.test(value), `${field} ${value} is not ISO`);
  }

  // Capabilities: the statuses declared; `domain` "the return-path domain, the tracking domain,
  // or the domain where the DMARC policy was found. null when not applicable or not configured";
  // `reason` "only set when status is failed".
  const capabilities = domain.capabilities as Record<string, Capability | undefined>;
  keysWithin(capabilities, CAPABILITIES, 'capabilities');
  for (const name of ['sending', 'return_path', 'dmarc', 'tracking'])
    check(capabilities[name] !== undefined, `capabilities lacks ${name}`);
  for (const [name, capability] of Object.entries(capabilities)) {
    if (!capability) continue;
    keysWithin(capability, CAPABILITY_FIELDS, `capabilities.${name}`);
    oneOf(CAPABILITY_STATUSES, capability.status, `capabilities.${name}.status`);
    if (capability.reason !== undefined && capability.reason !== null)
      check(capability.status === 'failed', `capabilities.${name}.reason set while not failed`);
    if (capability.pending) {
      keysWithin(capability.pending, ['domain', 'status'], `capabilities.${name}.pending`);
      oneOf(PENDING_STATUSES, capability.pending.status, `capabilities.${name}.pending.status`);
      check(
        domain.dns_records.some(
          (r) => r.state === 'pending' && r.host === capability.pending?.domain,
        ),
        `capabilities.${name}.pending.domain has no pending record`,
      );
    }
    if (capability.status === 'not_configured')
      check(!capability.domain, `capabilities.${name} is not_configured with a domain`);
  }
  const activeReturnPath = domain.dns_records.find(
    (r) => r.purpose === 'return_path' && r.state === 'active',
  );
  check(
    domain.capabilities.return_path.domain === activeReturnPath?.host,
    'capabilities.return_path.domain is not the return-path host',
  );
  check(
    domain.capabilities.sending.domain === null || domain.capabilities.sending.domain === undefined,
    'capabilities.sending.domain is set: the SDK names no hostname for sending',
  );
  if (domain.capabilities.dmarc.status === 'verified')
    check(
      !!domain.capabilities.dmarc.domain &&
        `.${domain.domain}`.endsWith(`.${domain.capabilities.dmarc.domain}`),
      'capabilities.dmarc.domain is not where a policy covering the domain was found',
    );
  else check(!domain.capabilities.dmarc.domain, 'capabilities.dmarc.domain set while not found');
  check(
    domain.capabilities.tracking.status === 'not_configured',
    'tracking is configured on a deployment without tracking domains',
  );

  // DNS records.
  check(domain.dns_records.length > 0, 'no dns_records');
  for (const record of domain.dns_records) {
    const what = `${record.purpose} record ${record.host}`;
    keysWithin(record, RECORD_FIELDS, what);
    for (const key of ['type', 'name', 'host', 'value', 'purpose', 'state', 'optional', 'status'])
      check(key in record, `${what} lacks ${key}`);
    check(record.purpose in TYPE_OF_PURPOSE, `${what}: unknown purpose`);
    check(
      record.type === TYPE_OF_PURPOSE[record.purpose],
      `${what} is ${record.type}; the SDK publishes ${record.purpose} as ${TYPE_OF_PURPOSE[record.purpose]}`,
    );
    oneOf(RECORD_STATES, record.state, `${what} state`);
    oneOf(RECORD_STATUSES, record.status, `${what} status`);
    check(
      record.host === domain.domain || record.host.endsWith(`.${domain.domain}`),
      `${what}: host is not within the domain`,
    );
    check(
      record.name === '@'
        ? record.host.split('.').length <= 3
        : record.host.startsWith(`${record.name}.`),
      `${what}: name ${record.name} is not the host relative to its zone`,
    );
    if (record.type === 'CNAME')
      check(
        /^[a-z0-9.-]+$/.test(record.value) && !record.value.endsWith('.'),
        `${what}: a CNAME value must be the target host name, got ${record.value}`,
      );
    check(
      record.optional === !['dkim', 'return_path', 'dmarc'].includes(record.purpose),
      `${what}: optional is ${record.optional}`,
    );
    if (record.status === 'verified')
      check(record.error === null, `${what}: verified with an error`);
    if (record.state === 'deprecated')
      check(
        typeof record.safe_to_remove === 'boolean',
        `${what}: deprecated without safe_to_remove`,
      );
    else
      check(
        record.safe_to_remove === null,
        `${what}: safe_to_remove set on a ${record.state} record`,
      );
  }
  for (const purpose of ['dkim', 'return_path', 'dmarc'] as const)
    check(
      domain.dns_records.filter((r) => r.purpose === purpose && r.state === 'active').length === 1,
      `not exactly one active ${purpose} record`,
    );
  expect(problems).toEqual([]);
}

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

  /** Publishes the domain's records (or the ones given) in the test DNS server, each as its type. */
  const publish = (domain: Domain, records = domain.dns_records) => {
    for (const record of records) dns.set(record.host, [publishedAs(record)]);
  };

  beforeAll(async () => {
    dns = await startDnsServer();
    platform = await startTestPlatform({
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '300',
      EMAIL_HELO_NAME: HELO,
      EMAIL_RETURN_PATH_TARGET: RETURN_PATH_TARGET,
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
    it('registers a domain with a 2048-bit DKIM key and the DKIM, return-path CNAME and DMARC records to publish', async () => {
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
          sending: { status: 'pending', domain: null },
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
          type: 'CNAME',
          name: 'send.mail',
          host: `send.${name}`,
          value: RETURN_PATH_TARGET,
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

    it('accepts the CNAME target in any case with a trailing dot, and a DMARC policy on the parent domain', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      const parent = domain.domain.split('.').slice(1).join('.');
      publish(domain, [recordOf(domain, 'dkim')]);
      dns.set(recordOf(domain, 'return_path').host, [
        { type: 'CNAME', domain: `${RETURN_PATH_TARGET.toUpperCase()}.` },
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

    it('verifies the return path only when its host is a CNAME to EMAIL_RETURN_PATH_TARGET', async () => {
      const domain = await bird.domains.create({ domain: fresh('mail') });
      const returnPath = recordOf(domain, 'return_path');
      expect(returnPath).toMatchObject({
        type: 'CNAME',
        host: `send.${domain.domain}`,
        value: RETURN_PATH_TARGET,
      });
      publish(
        domain,
        domain.dns_records.filter((r) => r.purpose !== 'return_path'),
      );

      // The SPF TXT the return path used to be, even one authorising the platform: not a CNAME.
      dns.set(returnPath.host, [{ type: 'TXT', data: `v=spf1 a:${HELO} ~all` }]);
      const txtOnly = await bird.domains.verify(domain.id);
      expect(txtOnly.status).toBe('failed');
      expect(txtOnly.capabilities.return_path.status).toBe('failed');
      expect(recordOf(txtOnly, 'return_path')).toMatchObject({
        status: 'failed',
        error: expect.stringContaining(`no CNAME record found at ${returnPath.host}`),
      });

      // A CNAME to another host.
      dns.set(returnPath.host, [{ type: 'CNAME', domain: HELO }]);
      const elsewhere = await bird.domains.verify(domain.id);
      expect(elsewhere.status).toBe('failed');
      expect(recordOf(elsewhere, 'return_path').error).toContain(
        `points to "${HELO}", not ${RETURN_PATH_TARGET}`,
      );

      // The CNAME to the target.
      dns.set(returnPath.host, [publishedAs(returnPath)]);
      const verified = await bird.domains.verify(domain.id);
      expect(verified.status).toBe('verified');
      expect(recordOf(verified, 'return_path')).toMatchObject({ status: 'verified', error: null });
      expect(verified.capabilities.return_path).toEqual({
        status: 'verified',
        domain: returnPath.host,
      });
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

  describe("the SDK's Domain type", () => {
    it('describes every answer of create, get, list, verify and update as the SDK documents it', async () => {
      const created = await bird.domains.create({ domain: fresh('sdk') });
      expectSdkDomain(created);
      expect(recordOf(created, 'return_path')).toMatchObject({
        type: 'CNAME',
        value: RETURN_PATH_TARGET,
      });
      expectSdkDomain(await bird.domains.get(created.id));

      // Checked with nothing published, then with each record published as its type.
      expectSdkDomain(await bird.domains.verify(created.id));
      publish(created);
      const verified = await bird.domains.verify(created.id);
      expect(verified.status).toBe('verified');
      expectSdkDomain(verified);

      // A staged return path (a pending record and capability), then promoted (a deprecated one).
      const staged = await bird.domains.update(created.id, { return_path: { name: 'bounce' } });
      expectSdkDomain(staged);
      expect(recordOf(staged, 'return_path', 'pending')).toMatchObject({
        type: 'CNAME',
        value: RETURN_PATH_TARGET,
        safe_to_remove: null,
      });
      publish(staged, [recordOf(staged, 'return_path', 'pending')]);
      const promoted = await bird.domains.verify(created.id);
      expectSdkDomain(promoted);
      expect(recordOf(promoted, 'return_path', 'deprecated')).toMatchObject({
        type: 'CNAME',
        safe_to_remove: true,
      });
      for (const domain of (await bird.domains.list({ name: created.domain })).data)
        expectSdkDomain(domain);
    });
  });
});
