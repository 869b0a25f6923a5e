import {
  BirdClient,
  BirdConflictError,
  BirdNotFoundError,
  BirdValidationError,
} from '@messagebird/sdk';
import { call, createWorkspace } from '@switchboard/testing';
import type { CreatedWorkspace } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

/**
 * SMS templates, keyword rules and suppressions on the embedded default, through the gateway
 * with the official SDK (raw HTTP where the status or the envelope is the point).
 */
describe('SMS templates, keyword rules and suppressions through the gateway', () => {
  let platform: TestPlatform;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  /** Numbers the workspaces hold (stocked and allocated with SQL: the numbers API is not ours). */
  const ACME_NL = '+31201234567';
  const ACME_US = '+12025550142';
  const OTHER_NL = '+31201234568';

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: acme.api_key.secret, body });

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'off' });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    other = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    await platform.db.query(
      `INSERT INTO sms_whatsapp.numbers (number, country_code, number_type, capabilities)
       VALUES ($1, 'NL', 'mobile', '{sms}'), ($2, 'US', 'local', '{sms,voice}'), ($3, 'NL', 'mobile', '{sms}')`,
      [ACME_NL, ACME_US, OTHER_NL],
    );
    await platform.db.query(
      `INSERT INTO sms_whatsapp.number_allocations (id, workspace_id, number, country_code)
       VALUES ('nda_acmenl', $1, $2, 'NL'), ('nda_acmeus', $1, $3, 'US'), ('nda_othernl', $4, $5, 'NL')`,
      [acme.workspace.id, ACME_NL, ACME_US, other.workspace.id, OTHER_NL],
    );
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
  });

  describe('templates', () => {
    it('lists the built-in catalog, every template system and active, with its filters', async () => {
      const { data } = await bird.smsTemplates.list();
      expect(data.length).toBeGreaterThanOrEqual(4);
      for (const template of data)
        expect(template).toMatchObject({
          scope: 'system',
          status: 'active',
          on_missing_language: 'fallback',
          live_version_id: null,
          created_at: null,
        });
      expect((await bird.smsTemplates.list({ scope: 'workspace' })).data).toEqual([]);
      const auth = await bird.smsTemplates.list({ category: 'authentication' });
      expect(auth.data.map(({ slug }) => slug)).toContain('bird_otp_verification');
      expect(auth.data.every(({ category }) => category === 'authentication')).toBe(true);
      const german = await bird.smsTemplates.list({ language: 'de' });
      expect(
        german.data.every(({ available_languages }) => available_languages.includes('de')),
      ).toBe(true);
      // Verify's passcode template carries every language Verify supports.
      const japanese = await bird.smsTemplates.list({ language: 'ja' });
      expect(japanese.data.map(({ slug }) => slug)).toEqual(['bird_otp_verification_expiry']);
      expect((await bird.smsTemplates.list({ language: 'sw' })).data).toEqual([]);
    });

    it('reads one template by slug or id, with typed variables and its languages', async () => {
      const otp = await bird.smsTemplates.get('bird_otp_verification');
      expect(otp).toMatchObject({
        id: expect.stringMatching(/^smt_/),
        slug: 'bird_otp_verification',
        category: 'authentication',
        body: expect.stringContaining('{{ code }}'),
        variables: [{ key: 'code', type: 'code', required: true, sensitive: true }],
        default_language: 'en',
        languages: { en: { status: 'live' }, nl: { status: 'live' }, de: { status: 'live' } },
      });
      for (const language of ['en', 'nl', 'de', 'fr', 'es'])
        expect(otp.available_languages).toContain(language);
      expect(await bird.smsTemplates.get(otp.id)).toEqual(otp);
    });

    it('answers an unknown reference 404 E04060, and refuses bad filters with 422', async () => {
      await expect(bird.smsTemplates.get('bird_nope')).rejects.toBeInstanceOf(BirdNotFoundError);
      const missing = await api('GET', '/v1/sms/templates/bird_nope');
      expect(missing.body).toMatchObject({ error: { code: 'E04060', type: 'not_found_error' } });
      const bad = await api('GET', '/v1/sms/templates?scope=mine&language=%21');
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({ error: { code: 'E01001' } });
    });
  });

  describe('keyword rules', () => {
    it('lists the defaults of US, CA (en and fr), GB, NL and DE, read-only and mandatory', async () => {
      const { data } = await bird.smsKeywordRules.list({ scope: 'system' });
      const countries = new Set(data.map(({ country }) => country));
      expect(countries).toEqual(new Set(['US', 'CA', 'GB', 'NL', 'DE']));
      for (const rule of data)
        expect(rule).toMatchObject({ id: expect.stringMatching(/^sks_/), mandatory: true });
      const canada = await bird.smsKeywordRules.list({ country: 'CA', operation: 'stop' });
      expect(canada.data.map(({ language }) => language).sort()).toEqual(['en', 'fr']);
      expect(canada.data.find((r) => r.language === 'fr')?.effective_keywords).toContain('ARRET');
      expect((await bird.smsKeywordRules.list({ scope: 'workspace' })).data).toEqual([]);
      const us = await bird.smsKeywordRules.get(data.find((r) => r.country === 'US')!.id);
      expect(us.effective_keywords).toEqual(expect.arrayContaining(['STOP', 'REVOKE', 'OPT OUT']));
    });

    it("creates a workspace help rule that outranks the default and keeps the default's keywords", async () => {
      const rule = await bird.smsKeywordRules.create({
        operation: 'help',
        country: 'US',
        reply: 'Acme support: help@acme.example.',
        keywords: ['support', 'HELP'],
      });
      expect(rule).toMatchObject({
        id: expect.stringMatching(/^skw_[0-9a-z]{26}$/),
        scope: 'workspace',
        country: 'US',
        language: null,
        number: null,
        keywords: ['SUPPORT'],
        effective_keywords: ['HELP', 'INFO', 'SUPPORT'],
        reply_suffix: 'Msg&data rates may apply. Reply STOP to opt out.',
        reply_disabled_at: null,
        mandatory: true,
      });
      const us = await bird.smsKeywordRules.list({ country: 'US', operation: 'help' });
      expect(us.data.map(({ id }) => id)[0]).toBe(rule.id);
      expect(us.data.map(({ scope }) => scope)).toEqual(['workspace', 'system']);
      // One rule per operation and country: the second is a conflict.
      await expect(
        bird.smsKeywordRules.create({ operation: 'help', country: 'US', reply: 'again' }),
      ).rejects.toBeInstanceOf(BirdConflictError);
      // The other workspace neither sees it nor reaches it.
      await expect(otherBird.smsKeywordRules.get(rule.id)).rejects.toBeInstanceOf(
        BirdNotFoundError,
      );
      expect((await otherBird.smsKeywordRules.list({ scope: 'workspace' })).data).toEqual([]);
    });

    it('reports a workspace info rule as not mandatory where no default info rule ships', async () => {
      // GB ships INFO as a help keyword, not an info rule: the SDK's `mandatory` is then false.
      const rule = await bird.smsKeywordRules.create({
        operation: 'info',
        country: 'GB',
        reply: 'Acme alerts: 4 msgs/month.',
        keywords: ['PROGRAM'],
      });
      expect(rule).toMatchObject({ operation: 'info', keywords: ['PROGRAM'], mandatory: false });
      expect(await bird.smsKeywordRules.get(rule.id)).toMatchObject({ mandatory: false });
      await bird.smsKeywordRules.delete(rule.id);
    });
    it('refuses a keyword bound to another operation (409 E06010), and rules that cannot apply', async () => {
      const bound = await api('POST', '/v1/sms/keyword-rules', {
        operation: 'custom',
        country: 'GB',
        keywords: ['Stop'],
        reply: 'no',
      });
      expect(bound.status).toBe(409);
      expect(bound.body).toMatchObject({ error: { code: 'E06010', param: 'keywords' } });
      const uncovered = await api('POST', '/v1/sms/keyword-rules', {
        operation: 'stop',
        country: 'FR',
        reply: 'Arrêt',
      });
      expect(uncovered.body).toMatchObject({ error: { code: 'E01030', param: 'country' } });
      // Only custom rules apply worldwide or where no defaults are shipped.
      const confirmUncovered = await api('POST', '/v1/sms/keyword-rules', {
        operation: 'confirm',
        country: 'FR',
        keywords: ['OUI'],
      });
      expect(confirmUncovered.body).toMatchObject({ error: { code: 'E01030', param: 'country' } });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ operation: 'stop', reply: 'Bye' }, 'country'],
        [{ operation: 'confirm', keywords: ['YES'] }, 'country'],
        [{ operation: 'stop', country: 'CA', reply: 'Bye' }, 'language'],
        [{ operation: 'help', country: 'US', language: 'en', reply: 'x' }, 'language'],
        [{ operation: 'custom', country: 'NL', reply: 'x' }, 'keywords'],
        [{ operation: 'help', country: 'GB', reply: null }, 'confirmed_self_managed'],
        [
          { operation: 'help', country: 'GB', reply: 'x', confirmed_self_managed: true },
          'confirmed_self_managed',
        ],
        [{ operation: 'help', country: 'GB', reply: 'x'.repeat(200) }, 'reply'],
        [{ operation: 'nope', country: 'GB' }, 'operation'],
        [{ operation: 'custom', number: '24680', keywords: ['X1'], reply: 'x' }, 'country'],
      ];
      for (const [body, param] of cases) {
        const response = await api<{ error: { code: string; details: { param: string }[] } }>(
          'POST',
          '/v1/sms/keyword-rules',
          body,
        );
        expect({ body, status: response.status, code: response.body.error.code }).toEqual({
          body,
          status: 422,
          code: 'E01001',
        });
        expect(response.body.error.details.map((d) => d.param)).toContain(param);
      }
      await expect(
        bird.smsKeywordRules.create({
          operation: 'custom',
          number: OTHER_NL,
          keywords: ['X'],
          reply: 'x',
        }),
      ).rejects.toBeInstanceOf(BirdValidationError);
    });

    it('derives the country from a number, switches the reply off when self-managed, and resets keywords with []', async () => {
      const rule = await bird.smsKeywordRules.create({
        operation: 'stop',
        number: ACME_NL,
        keywords: ['basta'],
        reply: null,
        confirmed_self_managed: true,
      });
      expect(rule).toMatchObject({
        country: 'NL',
        number: ACME_NL,
        keywords: ['BASTA'],
        reply: null,
        reply_disabled_at: expect.stringMatching(/^\d{4}-/),
      });
      expect(rule.effective_keywords).toEqual(
        expect.arrayContaining(['STOP', 'AFMELDEN', 'BASTA']),
      );
      const ordered = await bird.smsKeywordRules.list({ number: ACME_NL, from_country: 'DE' });
      expect(ordered.data[0].id).toBe(rule.id);
      const countries = ordered.data.map(({ country }) => country);
      expect(countries.indexOf('DE')).toBeGreaterThan(countries.lastIndexOf('NL'));

      const replied = await bird.smsKeywordRules.update(rule.id, { reply: 'Je bent afgemeld.' });
      expect(replied).toMatchObject({
        reply: 'Je bent afgemeld.',
        reply_disabled_at: null,
        keywords: ['BASTA'],
      });
      const reset = await bird.smsKeywordRules.update(rule.id, { keywords: [] });
      expect(reset.keywords).toEqual([]);
      expect(reset.effective_keywords).toContain('STOP');
      const clash = await api('PATCH', `/v1/sms/keyword-rules/${rule.id}`, { keywords: ['HULP'] });
      expect(clash.body).toMatchObject({ error: { code: 'E06010' } });

      await bird.smsKeywordRules.delete(rule.id);
      await expect(bird.smsKeywordRules.get(rule.id)).rejects.toBeInstanceOf(BirdNotFoundError);
      const gone = await api('GET', `/v1/sms/keyword-rules/${rule.id}`);
      expect(gone.body).toMatchObject({ error: { code: 'E04061' } });
    });

    it('refuses to change or delete a default (422 E01031)', async () => {
      const [system] = (await bird.smsKeywordRules.list({ scope: 'system', country: 'DE' })).data;
      for (const [method, body] of [
        ['PATCH', { reply: 'mine' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await api(method, `/v1/sms/keyword-rules/${system.id}`, body);
        expect(response.status).toBe(422);
        expect(response.body).toMatchObject({ error: { code: 'E01031' } });
      }
    });
  });

  describe('suppressions', () => {
    const PERSON = '+31612345678';

    it('adds a manual suppression (201), answers the same pair 200, and emits sms_suppression.created once', async () => {
      const added = await api<Record<string, unknown>>('POST', '/v1/sms/suppressions', {
        destination: '+31 6 1234 5678',
        originator: ACME_NL,
      });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({
        id: expect.stringMatching(/^ssp_[0-9a-z]{26}$/),
        destination: PERSON,
        originator: ACME_NL,
        reason: 'manual',
        origin: 'api_key',
        applies_to: 'all',
        blocking: true,
        source_sms_id: null,
        effective_at: expect.stringMatching(/^\d{4}-/),
        ended_at: null,
        ended_reason: null,
        ended_effective_at: null,
        source_end_sms_id: null,
        created_at: expect.stringMatching(/^\d{4}-/),
        last_asserted_at: expect.stringMatching(/^\d{4}-/),
      });
      const again = await api('POST', '/v1/sms/suppressions', {
        destination: PERSON,
        originator: ACME_NL,
      });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(added.body);
      expect(await bird.smsSuppressions.add({ destination: PERSON, originator: ACME_NL })).toEqual(
        added.body,
      );
      const events = await platform.db.query(
        `SELECT payload FROM sms_whatsapp.outbox WHERE type = 'sms_suppression.created' AND payload::text LIKE $1`,
        [`%${String(added.body.id)}%`],
      );
      expect(events.rows).toHaveLength(1);
    });

    it('refuses a malformed destination and a sender the workspace does not hold', async () => {
      const bad = await api<{ error: { code: string; details: { param: string }[] } }>(
        'POST',
        '/v1/sms/suppressions',
        { destination: 'not a number', originator: ACME_NL },
      );
      expect(bad.status).toBe(422);
      expect(bad.body.error.details.map((d) => d.param)).toEqual(['destination']);
      await expect(
        bird.smsSuppressions.add({ destination: PERSON, originator: OTHER_NL }),
      ).rejects.toBeInstanceOf(BirdValidationError);
    });

    it('lists episodes in force with filters and cursors, most recent opt-out first', async () => {
      const second = await bird.smsSuppressions.add({ destination: PERSON, originator: ACME_US });
      const third = await bird.smsSuppressions.add({
        destination: '+14155550100',
        originator: ACME_US,
      });
      const page = await bird.smsSuppressions.list({ limit: 2 });
      expect(page.data.map(({ id }) => id)).toEqual([third.id, second.id]);
      expect(page.next_cursor).not.toBeNull();
      const rest = await bird.smsSuppressions.list({
        limit: 2,
        starting_after: page.next_cursor as string,
      });
      expect(rest.data).toHaveLength(1);
      expect(rest.next_cursor).toBeNull();
      const back = await bird.smsSuppressions.list({
        limit: 2,
        ending_before: rest.prev_cursor as string,
      });
      expect(back.data).toEqual(page.data);
      const walked: string[] = [];
      for await (const item of bird.smsSuppressions.list({ limit: 1 })) walked.push(item.id);
      expect(walked).toEqual([...page.data, ...rest.data].map(({ id }) => id));
      const bySender = await bird.smsSuppressions.list({ originator: ACME_US });
      expect(bySender.data.map(({ id }) => id)).toEqual([third.id, second.id]);
      const pair = await bird.smsSuppressions.list({ destination: PERSON, originator: ACME_US });
      expect(pair.data.map(({ id }) => id)).toEqual([second.id]);
      const byPerson = [];
      for await (const item of bird.smsSuppressions.list({ destination: PERSON }))
        byPerson.push(item);
      expect(byPerson.map(({ originator }) => originator).sort()).toEqual(
        [ACME_US, ACME_NL].sort(),
      );
      const none = await bird.smsSuppressions.list({ reason: 'keyword_stop' });
      expect(none.data).toEqual([]);
      expect((await otherBird.smsSuppressions.list()).data).toEqual([]);
      await expect(otherBird.smsSuppressions.get(second.id)).rejects.toBeInstanceOf(
        BirdNotFoundError,
      );
    });

    it('ends a manual episode (204, then 204 again), keeps it readable as not blocking, refuses other reasons', async () => {
      const manual = await bird.smsSuppressions.add({
        destination: '+4915112345678',
        originator: ACME_NL,
      });
      await bird.smsSuppressions.remove(manual.id);
      const ended = await bird.smsSuppressions.get(manual.id);
      expect(ended).toMatchObject({
        blocking: false,
        ended_reason: 'api_key',
        ended_at: expect.any(String),
      });
      expect((await api('DELETE', `/v1/sms/suppressions/${manual.id}`)).status).toBe(204);
      const listed = await bird.smsSuppressions.list({ destination: '+4915112345678' });
      expect(listed.data).toEqual([]);
      // A new manual add after it ended is a new episode.
      const again = await api<{ id: string }>('POST', '/v1/sms/suppressions', {
        destination: '+4915112345678',
        originator: ACME_NL,
      });
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(manual.id);

      await platform.db.query(
        `INSERT INTO sms_whatsapp.sms_suppressions
           (id, workspace_id, destination, originator, reason, origin, effective_at, last_asserted_at)
         VALUES ('ssp_0000000000000000000000stop', $1, $2, $3, 'keyword_stop', 'keyword', now(), now())`,
        [acme.workspace.id, '+4915112345678', ACME_NL],
      );
      const refused = await api('DELETE', '/v1/sms/suppressions/ssp_0000000000000000000000stop');
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ error: { code: 'E01029' } });
      const unknown = await api('DELETE', '/v1/sms/suppressions/ssp_00000000000000000000000000');
      expect(unknown.body).toMatchObject({ error: { code: 'E04062', type: 'not_found_error' } });
    });
  });
});
