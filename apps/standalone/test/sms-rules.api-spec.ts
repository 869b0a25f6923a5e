import { BirdClient, BirdNotFoundError } from '@messagebird/sdk';
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
  let bird: BirdClient;

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: acme.api_key.secret, body });

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'off' });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
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
      expect((await bird.smsTemplates.list({ language: 'ja' })).data).toEqual([]);
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
});
