import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  BirdClient,
  BirdConflictError,
  BirdNotFoundError,
  BirdPermissionError,
  BirdValidationError,
} from '@messagebird/sdk';
import { call, createWorkspace } from '@switchboard/testing';
import type { ApiResponse, CreatedWorkspace } from '@switchboard/testing';
import fc from 'fast-check';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

type AllocatedNumber = Awaited<ReturnType<BirdClient['numbers']['get']>>;
type Order = Awaited<ReturnType<BirdClient['numbers']['orders']['get']>>;
type Available = Awaited<ReturnType<BirdClient['numbers']['available']['get']>>;

const NUMBER_FIELDS = [
  'id',
  'kind',
  'number',
  'country_code',
  'number_type',
  'capabilities',
  'status',
  'allocated_at',
  'released_at',
  'ownership',
] as const satisfies ReadonlyArray<keyof AllocatedNumber>;
const ORDER_FIELDS = [
  'id',
  'number',
  'country_code',
  'number_type',
  'status',
  'number_id',
  'failure_reason',
  'completed_at',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof Order>;
const AVAILABLE_FIELDS = [
  'number',
  'country_code',
  'number_type',
  'capabilities',
] as const satisfies ReadonlyArray<keyof Available>;

const ADMIN_CLI = join(__dirname, '../../../dist/apps/standalone/src/admin-cli.js');
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

interface Envelope {
  error: { code: string; type: string; details?: Array<{ param: string; message: string }> };
}
const codeOf = (response: ApiResponse) => (response.body as unknown as Envelope).error?.code;
const paramsOf = (response: ApiResponse) =>
  ((response.body as unknown as Envelope).error?.details ?? []).map((detail) => detail.param);

/** Numbers: the operator's stock (raw calls), the SDK's numbers, available and orders. */
describe('numbers through the gateway', () => {
  let platform: TestPlatform;
  let acme: CreatedWorkspace;
  let globex: CreatedWorkspace;
  let bird: BirdClient;
  let rival: BirdClient;
  const admin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: TEST_ADMIN_TOKEN, body });
  const stock = (body: Record<string, unknown>) => admin('POST', '/admin/v1/numbers', body);

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'off' });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    globex = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Globex' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    rival = new BirdClient({
      apiKey: globex.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    for (const [number, type, capabilities] of [
      ['+447700900201', 'mobile', ['sms', 'voice']],
      ['+447700900202', 'mobile', ['sms']],
      ['+442079460958', 'local', ['voice']],
      ['+12025550188', 'local', ['sms', 'mms', 'voice']],
    ] as const) {
      const stocked = await stock({ number, number_type: type, capabilities });
      expect(stocked.status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
  });

  describe('the operator stock', () => {
    it('stocks a number with its country from the number, dedicated and on sale', async () => {
      const created = await stock({
        number: '+31612345678',
        number_type: 'mobile',
        capabilities: ['sms'],
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        number: '+31612345678',
        country_code: 'NL',
        number_type: 'mobile',
        capabilities: ['sms'],
        kind: 'dedicated',
        created_at: ISO,
        holder: null,
      });
      const again = await stock({
        number: '+31612345678',
        number_type: 'mobile',
        capabilities: ['sms'],
      });
      expect(again.status).toBe(409);
      expect(codeOf(again)).toBe('E06012');
    });

    it('refuses what is not a stockable number, naming every field', async () => {
      const bad = await stock({
        number: '447700900999',
        number_type: 'pager',
        capabilities: ['fax'],
      });
      expect(bad.status).toBe(422);
      expect(paramsOf(bad).sort()).toEqual(['capabilities', 'number_type']);
      const notE164 = await stock({
        number: '447700900999',
        number_type: 'mobile',
        capabilities: ['sms'],
      });
      expect(notE164.status).toBe(422);
      expect(paramsOf(notE164)).toEqual(['number']);
      const shortWithoutCountry = await stock({
        number: '12345',
        number_type: 'short_code',
        capabilities: ['sms'],
      });
      expect(paramsOf(shortWithoutCountry)).toEqual(['country_code']);
      await fc.assert(
        fc.asyncProperty(
          fc.string({ maxLength: 16 }).filter((s) => !/^\+\d{7,15}$/.test(s)),
          async (number) => {
            const response = await stock({ number, number_type: 'mobile', capabilities: ['sms'] });
            expect(response.status).toBe(422);
          },
        ),
        { numRuns: 25, seed: 18 },
      );
      const unauthenticated = await call(platform.base, 'POST', '/admin/v1/numbers', {
        body: { number: '+447700900203', number_type: 'mobile', capabilities: ['sms'] },
      });
      expect(unauthenticated.status).toBe(401);
    });

    it('stocks a short code for its country and a shared number assigned to a workspace', async () => {
      const short = await stock({
        number: '12345',
        number_type: 'short_code',
        capabilities: ['sms'],
        country_code: 'us',
      });
      expect(short.status).toBe(201);
      expect(short.body).toMatchObject({ number: '12345', country_code: 'US', holder: null });
      const unknown = await stock({
        number: '+447700900299',
        number_type: 'mobile',
        capabilities: ['sms'],
        kind: 'shared',
        workspace_id: 'ws_nope',
      });
      expect(unknown.status).toBe(404);
      expect(codeOf(unknown)).toBe('E04001');
      const shared = await stock({
        number: '+447700900300',
        number_type: 'mobile',
        capabilities: ['sms'],
        kind: 'shared',
        workspace_id: acme.workspace.id,
      });
      expect(shared.status).toBe(201);
      expect(shared.body).toMatchObject({
        kind: 'shared',
        holder: {
          workspace_id: acme.workspace.id,
          number_id: expect.stringMatching(/^nda_/),
          allocated_at: ISO,
        },
      });
    });

    it('lists the stock newest first with cursors, and filters by country and availability', async () => {
      const first = await admin<{ data: Array<{ number: string }>; next_cursor: string }>(
        'GET',
        '/admin/v1/numbers?limit=2',
      );
      expect(first.status).toBe(200);
      expect(first.body.data).toHaveLength(2);
      const second = await admin<{ data: Array<{ number: string }> }>(
        'GET',
        `/admin/v1/numbers?limit=2&starting_after=${first.body.next_cursor}`,
      );
      expect(second.body.data[0].number).not.toBe(first.body.data[1].number);
      const gb = await admin<{ data: Array<{ country_code: string; kind: string }> }>(
        'GET',
        '/admin/v1/numbers?country_code=GB&available=false&limit=100',
      );
      expect(gb.body.data.map((n) => n.kind)).toEqual(['shared']);
    });

    it('removes a number nobody holds, and refuses one a workspace ordered (E14003)', async () => {
      await stock({ number: '+447700900400', number_type: 'mobile', capabilities: ['sms'] });
      const removed = await admin(
        'DELETE',
        `/admin/v1/numbers/${encodeURIComponent('+447700900400')}`,
      );
      expect(removed.status).toBe(204);
      const gone = await admin(
        'DELETE',
        `/admin/v1/numbers/${encodeURIComponent('+447700900400')}`,
      );
      expect(gone.status).toBe(404);
      await stock({ number: '+447700900401', number_type: 'mobile', capabilities: ['sms'] });
      await rival.numbers.orders.create({ number: '+447700900401' });
      const held = await admin(
        'DELETE',
        `/admin/v1/numbers/${encodeURIComponent('+447700900401')}`,
      );
      expect(held.status).toBe(409);
      expect(codeOf(held)).toBe('E14003');
    });

    it('stocks one short code in two countries, each found, ordered and removed by its country', async () => {
      for (const country of ['US', 'GB']) {
        const stocked = await stock({
          number: '54321',
          number_type: 'short_code',
          capabilities: ['sms'],
          country_code: country,
        });
        expect(stocked.status).toBe(201);
        expect(stocked.body).toMatchObject({ number: '54321', country_code: country });
      }
      const again = await stock({
        number: '54321',
        number_type: 'short_code',
        capabilities: ['sms'],
        country_code: 'GB',
      });
      expect([again.status, codeOf(again)]).toEqual([409, 'E06012']);
      for (const country of ['US', 'GB']) {
        const page = await bird.numbers.available.list({ country_code: country, limit: 100 });
        expect(page.data.filter(({ number }) => number === '54321')).toEqual([
          expect.objectContaining({ country_code: country }),
        ]);
      }
      // The SDK's call names no country: which of the two is meant must be said.
      await expect(bird.numbers.available.get('54321')).rejects.toBeInstanceOf(BirdValidationError);
      const gb = await call(platform.base, 'GET', '/v1/numbers/available/54321?country_code=GB', {
        token: acme.api_key.secret,
      });
      expect([gb.status, gb.body.country_code]).toEqual([200, 'GB']);
      const ambiguous = await call(platform.base, 'POST', '/v1/numbers/orders', {
        token: acme.api_key.secret,
        body: { number: '54321' },
      });
      expect([ambiguous.status, paramsOf(ambiguous)]).toEqual([422, ['country_code']]);
      const unqualified = await admin('DELETE', '/admin/v1/numbers/54321');
      expect([unqualified.status, paramsOf(unqualified)]).toEqual([422, ['country_code']]);
      const ordered = await call(platform.base, 'POST', '/v1/numbers/orders', {
        token: acme.api_key.secret,
        body: { number: '54321', country_code: 'GB' },
      });
      expect(ordered.body).toMatchObject({ status: 'completed', country_code: 'GB' });
      // Only the US one is on sale now: the SDK's order needs no country.
      const us = await rival.numbers.orders.create({ number: '54321' });
      expect(us).toMatchObject({ status: 'completed', country_code: 'US' });
      const held = await bird.numbers.list({ number: '54321', country_code: 'GB' });
      expect(held.data.map(({ country_code }) => country_code)).toEqual(['GB']);
      expect((await bird.numbers.list({ number: '54321', country_code: 'US' })).data).toEqual([]);
      await rival.numbers.release(us.number_id as string);
      expect((await admin('DELETE', '/admin/v1/numbers/54321?country_code=US')).status).toBe(204);
      const stillHeld = await admin('DELETE', '/admin/v1/numbers/54321');
      expect([stillHeld.status, codeOf(stillHeld)]).toEqual([409, 'E14003']);
    });
  });

  describe('available numbers and orders (SDK)', () => {
    it("lists one country's numbers on sale, with type, prefix and capability filters", async () => {
      const page = await bird.numbers.available.list({ country_code: 'GB' });
      for (const candidate of page.data)
        expect(Object.keys(candidate).sort()).toEqual([...AVAILABLE_FIELDS].sort());
      expect(page.data.map((n) => n.number)).toEqual([
        '+442079460958',
        '+447700900202',
        '+447700900201',
      ]);
      const both = await bird.numbers.available.list({
        country_code: 'GB',
        capabilities: ['sms', 'voice'],
      });
      expect(both.data.map((n) => n.number)).toEqual(['+447700900201']);
      const prefixed = await bird.numbers.available.list({ country_code: 'GB', prefix: '20' });
      expect(prefixed.data.map((n) => n.number)).toEqual(['+442079460958']);
      const local = await bird.numbers.available.list({ country_code: 'GB', number_type: 'local' });
      expect(local.data.map((n) => n.number)).toEqual(['+442079460958']);
      const paged = await bird.numbers.available.list({ country_code: 'GB', limit: 1 });
      expect(paged.data).toHaveLength(1);
      expect(paged.next_cursor).toEqual(expect.any(String));
      const all: string[] = [];
      for await (const n of bird.numbers.available.list({ country_code: 'GB', limit: 1 }))
        all.push(n.number);
      expect(all).toHaveLength(3);
    });

    it('requires country_code, and limits a prefix to 10 national digits', async () => {
      const missing = await call(platform.base, 'GET', '/v1/numbers/available', {
        token: acme.api_key.secret,
      });
      expect(missing.status).toBe(422);
      expect(paramsOf(missing)).toEqual(['country_code']);
      await expect(
        bird.numbers.available.list({ country_code: 'GB', prefix: '12345678901' }),
      ).rejects.toBeInstanceOf(BirdValidationError);
      await expect(bird.numbers.available.list({ country_code: 'XX' })).rejects.toBeInstanceOf(
        BirdValidationError,
      );
    });

    it('orders a number: 201 completed with number_id, and the number is no longer on sale', async () => {
      const candidate = await bird.numbers.available.get('+447700900201');
      expect(candidate).toEqual({
        number: '+447700900201',
        country_code: 'GB',
        number_type: 'mobile',
        capabilities: ['sms', 'voice'],
      });
      const { data: order, response } = await bird.numbers.orders
        .create({ number: '+447700900201' })
        .withResponse();
      expect(response.status).toBe(201);
      expect(Object.keys(order).sort()).toEqual([...ORDER_FIELDS].sort());
      expect(order).toEqual({
        id: expect.stringMatching(/^nor_[0-9a-z]{26}$/),
        number: '+447700900201',
        country_code: 'GB',
        number_type: 'mobile',
        status: 'completed',
        number_id: expect.stringMatching(/^nda_[0-9a-z]{26}$/),
        failure_reason: null,
        completed_at: ISO,
        created_at: ISO,
        updated_at: ISO,
      });
      const held = await bird.numbers.get(order.number_id!);
      expect(Object.keys(held).sort()).toEqual([...NUMBER_FIELDS].sort());
      expect(held).toEqual({
        id: order.number_id,
        kind: 'dedicated',
        number: '+447700900201',
        country_code: 'GB',
        number_type: 'mobile',
        capabilities: ['sms', 'voice'],
        status: 'active',
        allocated_at: order.completed_at,
        released_at: null,
        ownership: null,
      });
      await expect(bird.numbers.available.get('+447700900201')).rejects.toBeInstanceOf(
        BirdNotFoundError,
      );
      await expect(bird.numbers.orders.create({ number: '+447700900201' })).rejects.toMatchObject({
        statusCode: 409,
        code: 'E14001',
      });
      await expect(rival.numbers.orders.create({ number: '+449999999999' })).rejects.toBeInstanceOf(
        BirdConflictError,
      );
      expect(await bird.numbers.orders.get(order.id)).toEqual(order);
      const orders = await bird.numbers.orders.list({ status: 'completed' });
      expect(orders.data.map((o) => o.id)).toContain(order.id);
      expect((await bird.numbers.orders.list({ status: 'failed' })).data).toEqual([]);
    });

    it('lets exactly one of two concurrent orders for one number win; the other is 409 E14001', async () => {
      await stock({ number: '+447700900500', number_type: 'mobile', capabilities: ['sms'] });
      const attempts = await Promise.allSettled([
        bird.numbers.orders.create({ number: '+447700900500' }),
        rival.numbers.orders.create({ number: '+447700900500' }),
      ]);
      const won = attempts.filter((a) => a.status === 'fulfilled');
      const lost = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0].reason).toMatchObject({ statusCode: 409, code: 'E14001' });
      const holders = await platform.db.query(
        "SELECT workspace_id FROM sms_whatsapp.number_allocations WHERE number = '+447700900500' AND released_at IS NULL",
      );
      expect(holders.rows).toHaveLength(1);
    });
  });

  describe('the workspace numbers (SDK)', () => {
    it('finds one number by any spelling of it, and filters by country, type, prefix and capabilities', async () => {
      const spellings = ['+447700900201', '447700900201', '00447700900201', '+44 7700 900201'];
      for (const number of spellings) {
        const page = await bird.numbers.list({ number });
        expect({ number, found: page.data.map((n) => n.number) }).toEqual({
          number,
          found: ['+447700900201'],
        });
      }
      expect(
        (await bird.numbers.list({ number: '07700 900201', country_code: 'GB' })).data,
      ).toHaveLength(1);
      await expect(bird.numbers.list({ number: '7700 900201' })).rejects.toBeInstanceOf(
        BirdValidationError,
      );
      expect(
        (await bird.numbers.list({ country_code: 'GB', prefix: '7700' })).data.length,
      ).toBeGreaterThan(0);
      expect((await bird.numbers.list({ prefix: '447700' })).data.length).toBeGreaterThan(0);
      expect((await bird.numbers.list({ prefix: '1202' })).data).toEqual([]);
      expect(
        (await bird.numbers.list({ capabilities: ['sms', 'voice'] })).data.map((n) => n.number),
      ).toEqual(['+447700900201']);
      expect((await bird.numbers.list({ number_type: 'local' })).data).toEqual([]);
      await expect(
        bird.numbers.list({ country_code: 'GB', prefix: '12345678901' }),
      ).rejects.toBeInstanceOf(BirdValidationError);
      expect((await bird.numbers.list({ prefix: '123456789012345' })).data).toEqual([]);
    });

    it('releases a dedicated number for good and puts it back on sale; a shared one is E14002', async () => {
      await stock({ number: '+447700900600', number_type: 'mobile', capabilities: ['sms'] });
      const order = await bird.numbers.orders.create({ number: '+447700900600' });
      await bird.numbers.release(order.number_id!);
      await expect(bird.numbers.get(order.number_id!)).rejects.toBeInstanceOf(BirdNotFoundError);
      await expect(bird.numbers.release(order.number_id!)).rejects.toBeInstanceOf(
        BirdNotFoundError,
      );
      expect((await bird.numbers.list({ number: '+447700900600' })).data).toEqual([]);
      const released = await platform.db.query(
        'SELECT status, released_at FROM sms_whatsapp.number_allocations WHERE id = $1',
        [order.number_id],
      );
      expect(released.rows[0]).toMatchObject({ status: 'released', released_at: expect.any(Date) });
      expect(await bird.numbers.available.get('+447700900600')).toMatchObject({
        number: '+447700900600',
      });
      const reordered = await rival.numbers.orders.create({ number: '+447700900600' });
      expect(reordered.number_id).not.toBe(order.number_id);
      const [shared] = (await bird.numbers.list({ number: '+447700900300' })).data;
      expect(shared.kind).toBe('shared');
      await expect(bird.numbers.release(shared.id)).rejects.toMatchObject({
        statusCode: 422,
        code: 'E14002',
      });
      expect((await bird.numbers.get(shared.id)).status).toBe('active');
      // What E14002 points to: the operator withdraws it by taking it out of stock.
      const withdrawn = await admin(
        'DELETE',
        `/admin/v1/numbers/${encodeURIComponent('+447700900300')}`,
      );
      expect(withdrawn.status).toBe(204);
      await expect(bird.numbers.get(shared.id)).rejects.toBeInstanceOf(BirdNotFoundError);
      expect((await bird.numbers.list({ number: '+447700900300' })).data).toEqual([]);
    });

    it('pages the numbers and the orders, newest order first, with the SDK cursors', async () => {
      const numbers = (await bird.numbers.list({ limit: 100 })).data;
      expect(numbers.length).toBeGreaterThanOrEqual(2);
      const walked: string[] = [];
      for await (const held of bird.numbers.list({ limit: 1 })) walked.push(held.id);
      expect(walked).toEqual(numbers.map((n) => n.id));
      const first = await bird.numbers.list({ limit: 1 });
      const second = await bird.numbers.list({
        limit: 1,
        starting_after: first.next_cursor as string,
      });
      expect(second.data.map((n) => n.id)).toEqual([numbers[1].id]);
      const back = await bird.numbers.list({
        limit: 1,
        ending_before: second.prev_cursor as string,
      });
      expect(back.data).toEqual(first.data);

      const orders = (await bird.numbers.orders.list({ limit: 100 })).data;
      expect(orders.length).toBeGreaterThanOrEqual(2);
      const created = orders.map((o) => o.created_at);
      expect([...created].sort().reverse()).toEqual(created);
      const walkedOrders: string[] = [];
      for await (const order of bird.numbers.orders.list({ limit: 1 })) walkedOrders.push(order.id);
      expect(walkedOrders).toEqual(orders.map((o) => o.id));
      const completed: string[] = [];
      for await (const order of bird.numbers.orders.list({ status: 'completed', limit: 1 }))
        completed.push(order.status);
      expect(completed).toEqual(
        orders.filter((o) => o.status === 'completed').map(() => 'completed'),
      );
    });

    it("answers 404 for another workspace's numbers and orders, and lists none of them", async () => {
      const [ours] = (await bird.numbers.list({ number: '+447700900201' })).data;
      const [order] = (await bird.numbers.orders.list()).data;
      await expect(rival.numbers.get(ours.id)).rejects.toBeInstanceOf(BirdNotFoundError);
      await expect(rival.numbers.release(ours.id)).rejects.toBeInstanceOf(BirdNotFoundError);
      await expect(rival.numbers.orders.get(order.id)).rejects.toBeInstanceOf(BirdNotFoundError);
      const theirs = (await rival.numbers.list()).data.map((n) => n.number);
      expect(theirs).not.toContain('+447700900201');
      expect((await bird.numbers.get(ours.id)).status).toBe('active');
    });

    it('lets a read key list but not order or release', async () => {
      const key = await admin<{ secret: string }>(
        'POST',
        `/admin/v1/workspaces/${acme.workspace.id}/api-keys`,
        { role: 'read' },
      );
      const reader = new BirdClient({
        apiKey: key.body.secret,
        baseUrl: platform.base,
        maxRetries: 0,
      });
      expect((await reader.numbers.list()).data.length).toBeGreaterThan(0);
      await expect(
        reader.numbers.orders.create({ number: '+447700900202' }),
      ).rejects.toBeInstanceOf(BirdPermissionError);
    });
  });

  describe('SMS senders (operator)', () => {
    const senders = (workspaceId: string) => `/admin/v1/workspaces/${workspaceId}/sms-senders`;

    it('registers a sender (201), refuses it twice (409 E06013), lists and deletes it', async () => {
      const created = await admin<{ id: string }>('POST', senders(acme.workspace.id), {
        sender: 'Acme',
        categories: ['marketing', 'transactional'],
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^snd_[0-9a-z]{26}$/),
        workspace_id: acme.workspace.id,
        sender: 'Acme',
        categories: ['transactional', 'marketing'],
        created_at: ISO,
      });
      const again = await admin('POST', senders(acme.workspace.id), { sender: 'Acme' });
      expect(again.status).toBe(409);
      expect(codeOf(again)).toBe('E06013');
      const all = await admin('POST', senders(acme.workspace.id), { sender: 'Acme Alerts' });
      expect(all.body).toMatchObject({ sender: 'Acme Alerts', categories: null });
      const elsewhere = await admin('POST', senders(globex.workspace.id), { sender: 'Acme' });
      expect(elsewhere.status).toBe(201);
      const listed = await admin<{ data: Array<{ sender: string }> }>(
        'GET',
        senders(acme.workspace.id),
      );
      expect(listed.body.data.map((s) => s.sender)).toEqual(['Acme Alerts', 'Acme']);
      const removed = await admin('DELETE', `${senders(acme.workspace.id)}/${created.body.id}`);
      expect(removed.status).toBe(204);
      const twice = await admin('DELETE', `${senders(acme.workspace.id)}/${created.body.id}`);
      expect(twice.status).toBe(404);
      expect(codeOf(twice)).toBe('E04067');
      const crossed = await admin(
        'DELETE',
        `${senders(globex.workspace.id)}/${all.body.id as string}`,
      );
      expect(codeOf(crossed)).toBe('E04067');
      const noWorkspace = await admin('GET', senders('ws_missing'));
      expect(codeOf(noWorkspace)).toBe('E04001');
    });

    it('holds senders to the GSM rules: 1-11 letters, digits and spaces, at least one letter', async () => {
      for (const sender of ['123456', 'TwelveChars1', 'Acme!', ' Acme', 'Äcme']) {
        const response = await admin('POST', senders(acme.workspace.id), { sender });
        expect({ sender, status: response.status, params: paramsOf(response) }).toEqual({
          sender,
          status: 422,
          params: ['sender'],
        });
      }
      const category = await admin('POST', senders(acme.workspace.id), {
        sender: 'Ok',
        categories: ['promo'],
      });
      expect(paramsOf(category)).toEqual(['categories']);
      await fc.assert(
        fc.asyncProperty(
          fc
            .string({ minLength: 1, maxLength: 20 })
            .filter((s) => !/^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/.test(s)),
          async (sender) => {
            const response = await admin('POST', senders(globex.workspace.id), { sender });
            expect(response.status).toBe(422);
          },
        ),
        { numRuns: 30, seed: 18 },
      );
    });
  });

  describe('admin CLI', () => {
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, [ADMIN_CLI, ...args], {
        encoding: 'utf8',
        env: {
          ...process.env,
          PLATFORM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
          SWITCHBOARD_URL: platform.base,
        },
      });

    it('stocks and lists numbers, registers and lists senders', async () => {
      const stocked = await cli(
        'stock-number',
        '--number',
        '+447700900700',
        '--number-type',
        'mobile',
        '--capabilities',
        'sms,voice',
      );
      expect(stocked.stdout).toContain('number: +447700900700');
      expect(stocked.stdout).toContain('country_code: GB');
      const listed = await cli('list-numbers', '--country', 'GB', '--available');
      expect(listed.stdout.split('\n')[0].split(/\s+/)).toEqual([
        'number',
        'country_code',
        'number_type',
        'capabilities',
        'kind',
        'created_at',
        'holder',
      ]);
      expect(listed.stdout).toContain('+447700900700');
      const registered = await cli(
        'register-sms-sender',
        '--workspace',
        globex.workspace.id,
        '--sender',
        'Globex',
        '--categories',
        'authentication',
      );
      expect(registered.stdout).toContain('sender: Globex');
      const senderTable = await cli('list-sms-senders', '--workspace', globex.workspace.id);
      expect(senderTable.stdout).toContain('Globex');
      await expect(
        cli(
          'stock-number',
          '--number',
          '+447700900700',
          '--number-type',
          'mobile',
          '--capabilities',
          'sms',
        ),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining('409 E06012'),
      });
    });
  });
});
