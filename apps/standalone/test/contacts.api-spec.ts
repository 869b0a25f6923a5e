import { BirdClient, BirdConflictError, BirdNotFoundError } from '@messagebird/sdk';
import { call, createWorkspace } from '@switchboard/testing';
import type { CreatedWorkspace } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

/**
 * Contacts, contact properties and audiences on the embedded default, through the gateway with
 * the official SDK (and raw HTTP where the status or the envelope is the point).
 */
describe('contacts, contact properties and audiences through the gateway', () => {
  let platform: TestPlatform;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: acme.api_key.secret, body });

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'off' });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    other = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    await bird.contactProperties.create({ key: 'plan', type: 'string', fallback_value: 'free' });
    await bird.contactProperties.create({ key: 'seats', type: 'number' });
    await bird.contactProperties.create({ key: 'renews_at', type: 'datetime' });
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('normalizes identifiers: two spellings of one address are one contact (409 naming the field, without details)', async () => {
    const ada = await bird.contacts.create({
      email: '  Ada@Example.COM ',
      phone_number: '+44 (20) 7946-0958',
      first_name: 'Ada',
      data: { plan: 'pro', renews_at: '2027-01-15T11:30:00.5+02:00' },
    });
    expect(ada).toMatchObject({
      id: expect.stringMatching(/^con_/),
      email: 'ada@example.com',
      phone_number: '+442079460958',
      first_name: 'Ada',
      data: { plan: 'pro', renews_at: '2027-01-15T09:30:00Z' },
    });
    const again = await api('POST', '/v1/contacts', { email: 'ADA@example.com' });
    expect(again.status).toBe(409);
    // `details` are for validation errors only: a conflict says which contact in its message.
    expect(again.body).toMatchObject({
      error: {
        code: 'E04056',
        type: 'conflict_error',
        param: 'email',
        message: expect.stringContaining(ada.id),
      },
    });
    expect(again.body).not.toHaveProperty('error.details');
    const phone = await api('POST', '/v1/contacts', { phone_number: '+442079460958' });
    expect(phone.body).toMatchObject({ error: { code: 'E04055', param: 'phone_number' } });
    expect(phone.body).not.toHaveProperty('error.details');
    // A replay of the stored 409 is the same answer, param included.
    for (let i = 0; i < 2; i++) {
      const replay = await call(platform.base, 'POST', '/v1/contacts', {
        token: acme.api_key.secret,
        body: { email: 'ada@example.com' },
        headers: { 'idempotency-key': 'taken-email' },
      });
      expect(replay.headers.get('idempotency-replay')).toBe(i === 0 ? null : 'true');
      expect(replay.body).toMatchObject({ error: { code: 'E04056', param: 'email' } });
      expect(replay.body).not.toHaveProperty('error.details');
    }
    const sdkError = await bird.contacts.create({ email: 'ada@example.com' }).catch((e) => e);
    expect(sdkError).toBeInstanceOf(BirdConflictError);
    expect(sdkError).toMatchObject({ code: 'E04056', param: 'email' });
    // "" is an omitted phone; then nothing identifies the contact.
    const empty = await api('POST', '/v1/contacts', { phone_number: '', first_name: 'x' });
    expect(empty.status).toBe(422);
    // Text PostgreSQL cannot store (NUL, a lone surrogate) is refused before any service sees it.
    for (const email of ['a\u0000b@example.com', 'x\ud800@example.com']) {
      const hostile = await api('POST', '/v1/contacts/batch', { contacts: [{ email }] });
      expect(hostile.status).toBeGreaterThanOrEqual(400);
      expect(hostile.status).toBeLessThan(500);
      expect(hostile.body).toMatchObject({ error: { details: expect.any(Array) } });
    }
    const found = await bird.contacts.list({ email: 'ADA@EXAMPLE.COM' });
    expect(found.data.map((c) => c.id)).toEqual([ada.id]);
  });

  it('checks data against the declared, non-archived properties and their types', async () => {
    const bad = await api('POST', '/v1/contacts', {
      email: 'data@example.com',
      data: { plan: 3, unknown_key: 'x', seats: 'many' },
    });
    expect(bad.status).toBe(422);
    const params = (bad.body as { error: { details: Array<{ param: string }> } }).error.details
      .map((d) => d.param)
      .sort();
    expect(params).toEqual(['data.plan', 'data.seats', 'data.unknown_key']);
    const long = await api('POST', '/v1/contacts', {
      email: 'data@example.com',
      data: { plan: 'x'.repeat(501) },
    });
    expect(long.status).toBe(422);
    const seats = (await bird.contactProperties.list()).data.find((p) => p.key === 'seats');
    await bird.contactProperties.archive(seats!.id);
    const archived = await api('POST', '/v1/contacts', {
      email: 'data@example.com',
      data: { seats: 3 },
    });
    expect(archived.body).toMatchObject({ error: { code: 'E01001', param: 'data.seats' } });
    await bird.contactProperties.unarchive(seats!.id);
    await expect(
      bird.contacts.create({ email: 'data@example.com', data: { seats: 3 } }),
    ).resolves.toMatchObject({ data: { seats: 3 } });
  });

  it('PATCH merges data, null removes a key or an identifier, but never the last one', async () => {
    const grace = await bird.contacts.create({
      email: 'grace@example.com',
      phone_number: '+14155550100',
      data: { plan: 'pro', seats: 2 },
    });
    const merged = await bird.contacts.update(grace.id, { data: { seats: 5, plan: null } });
    expect(merged.data).toEqual({ seats: 5 });
    const noEmail = await bird.contacts.update(grace.id, { email: null, last_name: 'Hopper' });
    expect(noEmail).toMatchObject({
      email: null,
      phone_number: '+14155550100',
      last_name: 'Hopper',
    });
    const last = await api('PATCH', `/v1/contacts/${grace.id}`, { phone_number: null });
    expect(last.status).toBe(422);
    expect(last.body).toMatchObject({ error: { param: 'phone_number' } });
    const taken = await api('PATCH', `/v1/contacts/${grace.id}`, { email: 'ada@example.com' });
    expect(taken.body).toMatchObject({ error: { code: 'E04056', param: 'email' } });
    expect(taken.body).not.toHaveProperty('error.details');
    await expect(bird.contacts.get(grace.id)).resolves.toMatchObject({ email: null });
  });

  it('upserts a batch with a result per entry in order: created, updated and failed, one bad row sinking nothing', async () => {
    const audience = await bird.audiences.create({ name: 'Imported' });
    const result = await bird.contacts.batch({
      audience_ids: [audience.id],
      contacts: [
        { email: 'new1@example.com', first_name: 'New' },
        { email: 'ADA@example.com', last_name: 'Lovelace', data: { seats: 9 } },
        { email: 'not an address' },
        { email: 'new1@example.com', phone_number: '+33 1 23 45 67 89' },
        { email: 'ada@example.com', phone_number: '+1 415 555 0100' },
        { first_name: 'nobody' },
        { email: 'typo@example.com', data: { nope: 1 } },
      ],
    });
    expect(result.data.map((r) => r.status)).toEqual([
      'created',
      'updated',
      'failed',
      'updated',
      'failed',
      'failed',
      'failed',
    ]);
    expect(result.data[1]).toMatchObject({
      matched_on: 'email',
      entry: { email: 'ada@example.com' },
    });
    expect(result.data[2].error).toMatchObject({ type: 'validation_error', code: 'E01001' });
    expect(result.data[3].contact_id).toBe(result.data[0].contact_id);
    expect(result.data[4].error).toMatchObject({ type: 'conflict_error', code: 'E04058' });
    expect(result.data[6].error?.message).toMatch(/nope/);
    const ada = (await bird.contacts.list({ email: 'ada@example.com' })).data[0];
    expect(ada).toMatchObject({ last_name: 'Lovelace', data: { plan: 'pro', seats: 9 } });
    expect(ada.audiences).toEqual([{ id: audience.id, name: 'Imported' }]);
    const members = await bird.audiences.listContacts(audience.id);
    expect(members.data.map((m) => m.contact.email).sort()).toEqual([
      'ada@example.com',
      'new1@example.com',
    ]);

    // match_on decides alone; data_mode replace overwrites the stored map.
    const replaced = await bird.contacts.batch({
      match_on: 'phone_number',
      data_mode: 'replace',
      contacts: [
        { phone_number: '+33123456789', data: { plan: 'team' } },
        { email: 'no-phone@example.com' },
      ],
    });
    expect(replaced.data.map((r) => r.status)).toEqual(['updated', 'failed']);
    expect(replaced.data[0].matched_on).toBe('phone_number');

    // Unknown audiences: the request fails and nothing is written.
    const unknownAudience = await api('POST', '/v1/contacts/batch', {
      audience_ids: ['adn_00000000000000000000000000'],
      contacts: [{ email: 'never@example.com' }],
    });
    expect(unknownAudience.status).toBe(422);
    expect((await bird.contacts.list({ email: 'never@example.com' })).data).toEqual([]);
  });

  it('lists with filters, q substring, identifier, cursors and include_total', async () => {
    for (let i = 0; i < 5; i++) await bird.contacts.create({ email: `page${i}@list.test` });
    const first = await api<{ data: Array<{ email: string }>; next_cursor: string; total: number }>(
      'GET',
      '/v1/contacts?q=LIST.TEST&limit=2&include_total=true',
    );
    expect(first.body.total).toBe(5);
    expect(first.body.data.map((c) => c.email)).toEqual(['page4@list.test', 'page3@list.test']);
    const second = await api<{ data: Array<{ email: string }> }>(
      'GET',
      `/v1/contacts?q=LIST.TEST&limit=2&starting_after=${first.body.next_cursor}`,
    );
    expect(second.body.data.map((c) => c.email)).toEqual(['page2@list.test', 'page1@list.test']);
    const phones = await api<{ data: Array<{ phone_number: string }> }>(
      'GET',
      '/v1/contacts?phone_number=%2B14155550100&phone_number=%2B33%201%2023%2045%2067%2089',
    );
    expect(phones.body.data.map((c) => c.phone_number).sort()).toEqual([
      '+14155550100',
      '+33123456789',
    ]);
    const withPhone = await bird.contacts.list({ identifier: 'phone_number', limit: 100 });
    expect(withPhone.data.every((c) => c.phone_number !== null)).toBe(true);
    // "An empty value is a validation error": spaces alone are empty too.
    for (const query of ['email=', 'email=%20%20', 'external_id=%20', 'phone_number=%20'])
      expect([query, (await api('GET', `/v1/contacts?${query}`)).status]).toEqual([query, 422]);
    expect((await api('GET', '/v1/contacts?phone_number=nope')).status).toBe(422);
    expect((await api('GET', '/v1/contacts?starting_after=forged')).body).toMatchObject({
      error: { code: 'E01012' },
    });
  });

  it('manages properties: key rules, duplicate 409, types and fallback, archive and unarchive 409 on the wrong state', async () => {
    for (const key of ['Plan', '1plan', 'a-b', 'x'.repeat(51)])
      expect((await api('POST', '/v1/contact-properties', { key, type: 'string' })).status).toBe(
        422,
      );
    const duplicate = await api('POST', '/v1/contact-properties', { key: 'plan', type: 'string' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({
      error: {
        code: 'E06006',
        type: 'conflict_error',
        param: 'key',
        message: expect.stringContaining('plan'),
      },
    });
    expect(duplicate.body).not.toHaveProperty('error.details');
    const badFallback = await api('POST', '/v1/contact-properties', {
      key: 'vip',
      type: 'boolean',
      fallback_value: 'yes',
    });
    expect(badFallback.body).toMatchObject({ error: { param: 'fallback_value' } });
    const vip = await bird.contactProperties.create({
      key: 'vip',
      type: 'boolean',
      fallback_value: false,
    });
    expect(vip).toMatchObject({
      key: 'vip',
      type: 'boolean',
      fallback_value: false,
      archived: false,
    });
    await expect(
      bird.contactProperties.update(vip.id, { fallback_value: null }),
    ).resolves.toMatchObject({ fallback_value: null });
    await bird.contactProperties.archive(vip.id);
    await expect(bird.contactProperties.archive(vip.id)).rejects.toBeInstanceOf(BirdConflictError);
    await bird.contactProperties.unarchive(vip.id);
    const again = await api('POST', `/v1/contact-properties/${vip.id}/unarchive`);
    expect(again.body).toMatchObject({ error: { code: 'E06008' } });
  });

  it('manages audiences: members in bulk, idempotent, newest first with joined_at, removal of one 204 even when not a member', async () => {
    const audience = await bird.audiences.create({ name: '  Beta testers ', description: 'early' });
    expect(audience).toMatchObject({ name: 'Beta testers', type: 'static', description: 'early' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await bird.contacts.create({ email: `m${i}@aud.test` })).id);
    await bird.audiences.addContacts(audience.id, { contact_ids: [ids[0], ids[0]] });
    await bird.audiences.addContacts(audience.id, { contact_ids: ids });
    const listed = await bird.audiences.listContacts(audience.id);
    expect(listed.data.map((m) => m.contact.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(listed.data[0].joined_at).toMatch(/Z$/);
    const unknown = await api('POST', `/v1/audiences/${audience.id}/contacts`, {
      contact_ids: [ids[0], 'con_00000000000000000000000000'],
    });
    expect(unknown.status).toBe(422);
    await bird.audiences.removeContacts(audience.id, { contact_ids: [ids[1]] });
    expect((await api('DELETE', `/v1/audiences/${audience.id}/contacts/${ids[1]}`)).status).toBe(
      204,
    );
    expect((await bird.audiences.listContacts(audience.id)).data).toHaveLength(2);
    const renamed = await bird.audiences.update(audience.id, { description: null });
    expect(renamed.description).toBeNull();
    expect((await api('PATCH', `/v1/audiences/${audience.id}`, { name: '   ' })).status).toBe(422);
    await bird.audiences.delete(audience.id);
    await expect(bird.audiences.get(audience.id)).rejects.toBeInstanceOf(BirdNotFoundError);
    await expect(bird.contacts.get(ids[0])).resolves.toMatchObject({ email: 'm0@aud.test' });
  });

  it('reads, lists and deletes with the SDK: a deleted contact leaves its audiences, properties and audiences list with their flags', async () => {
    const audience = await bird.audiences.create({ name: 'Deletion test' });
    const gone = await bird.contacts.create({ email: 'gone@delete.test' });
    await bird.audiences.addContacts(audience.id, { contact_ids: [gone.id] });
    await expect(bird.contacts.get(gone.id)).resolves.toMatchObject({ email: 'gone@delete.test' });
    await bird.contacts.delete(gone.id);
    await expect(bird.contacts.get(gone.id)).rejects.toBeInstanceOf(BirdNotFoundError);
    await expect(bird.contacts.delete(gone.id)).rejects.toBeInstanceOf(BirdNotFoundError);
    expect((await bird.audiences.listContacts(audience.id)).data).toEqual([]);
    const found = await bird.audiences.list({ q: 'DELETION' });
    expect(found.data.map((a) => a.id)).toEqual([audience.id]);
    const plan = (await bird.contactProperties.list({ limit: 100 })).data.find(
      (p) => p.key === 'plan',
    );
    await expect(bird.contactProperties.get(plan!.id)).resolves.toMatchObject({
      key: 'plan',
      type: 'string',
      fallback_value: 'free',
      archived: false,
    });
  });

  it('shows another workspace nothing: its ids are 404 and its lists are empty', async () => {
    const ours = await bird.contacts.create({ email: 'private@acme.test' });
    const audience = await bird.audiences.create({ name: 'Private' });
    const theirs = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    await expect(theirs.contacts.get(ours.id)).rejects.toBeInstanceOf(BirdNotFoundError);
    await expect(theirs.audiences.get(audience.id)).rejects.toBeInstanceOf(BirdNotFoundError);
    expect((await theirs.contacts.list({ email: 'private@acme.test' })).data).toEqual([]);
    // Their own copy of the address is theirs: uniqueness is per workspace.
    await expect(theirs.contacts.create({ email: 'private@acme.test' })).resolves.toBeDefined();
    const add = await call(platform.base, 'POST', `/v1/audiences/${audience.id}/contacts`, {
      token: other.api_key.secret,
      body: { contact_ids: [ours.id] },
    });
    expect(add.status).toBe(404);
  });

  it('leaves exactly one contact per email after 20 concurrent upserts of overlapping batches', async () => {
    const emails = Array.from({ length: 60 }, (_, i) => `race${i}@overlap.test`);
    const batches = Array.from({ length: 20 }, (_, b) =>
      emails
        .slice((b * 3) % 40, ((b * 3) % 40) + 20)
        .map((email) => ({ email, first_name: `b${b}` })),
    );
    const results = await Promise.all(batches.map((contacts) => bird.contacts.batch({ contacts })));
    expect(results.flatMap((r) => r.data).every((r) => r.status !== 'failed')).toBe(true);
    const page = await bird.contacts.list({ q: 'overlap.test', limit: 100, include_total: true });
    const stored = page.data.map((c) => c.email);
    expect(new Set(stored).size).toBe(stored.length);
    const touched = new Set(batches.flat().map((entry) => entry.email));
    expect(stored.sort()).toEqual([...touched].sort());
  });

  it('lets a batch entry take an identifier an earlier entry freed, and two contacts swap theirs', async () => {
    const contact = async (name: string) =>
      (
        await api<{ id: string }>('POST', '/v1/contacts', {
          email: `${name}@move.test`,
          external_id: `move-${name}`,
        })
      ).body.id;
    const first = await contact('b');
    const moved = await bird.contacts.batch({
      contacts: [
        { external_id: 'move-b', email: 'b2@move.test' },
        { email: 'b@move.test', first_name: 'New' },
        { email: 'unrelated@move.test' },
      ],
    });
    expect(moved.data.map((r) => r.status)).toEqual(['updated', 'created', 'created']);
    expect(moved.data[0].contact_id).toBe(first);
    const c = await contact('c');
    const d = await contact('d');
    const swapped = await bird.contacts.batch({
      contacts: [
        { external_id: 'move-c', email: 'tmp@move.test' },
        { external_id: 'move-d', email: 'c@move.test' },
        { external_id: 'move-c', email: 'd@move.test' },
      ],
    });
    expect(swapped.data.map((r) => r.status)).toEqual(['updated', 'updated', 'updated']);
    expect((await bird.contacts.get(c)).email).toBe('d@move.test');
    expect((await bird.contacts.get(d)).email).toBe('c@move.test');
  });

  it('never deadlocks a PATCH moving an identifier against a batch naming both (no 500)', async () => {
    const statuses: number[] = [];
    for (let pair = 0; pair < 20; pair++) {
      const email = `swap${pair}@deadlock.test`;
      const next = `swap${pair}.next@deadlock.test`;
      const created = await api<{ id: string }>('POST', '/v1/contacts', { email });
      const [patched, batched] = await Promise.all([
        api('PATCH', `/v1/contacts/${created.body.id}`, { email: next }),
        api('POST', '/v1/contacts/batch', { contacts: [{ email }, { email: next }] }),
      ]);
      statuses.push(patched.status, batched.status);
    }
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});
