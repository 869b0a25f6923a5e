import { ErrorCatalog } from '@switchboard/contracts';
import { call } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

interface SearchResult {
  slug: string;
  section: string;
  markdown_url: string;
  snippet: string;
  highlights?: string[];
}

describe('docs API through the gateway', () => {
  let platform: TestPlatform;
  let base: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    base = platform.base;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('ranks the idempotency guide section first for "idempotency", without auth', async () => {
    const response = await call<{ data: SearchResult[] }>(
      base,
      'GET',
      '/v1/docs/search?q=idempotency',
    );
    expect(response.status).toBe(200);
    expect(response.body.data[0]).toMatchObject({
      slug: 'guides/idempotency',
      markdown_url: expect.stringContaining('guides/idempotency'),
    });
    expect(response.body.data[0].snippet.length).toBeGreaterThan(0);
    expect(response.body.data[0].highlights).toBeUndefined();
  });

  it('adds the matching passages with contents=highlights', async () => {
    const response = await call<{ data: SearchResult[] }>(
      base,
      'GET',
      '/v1/docs/search?q=idempotency&contents=highlights&limit=3',
    );
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeLessThanOrEqual(3);
    expect(response.body.data[0].highlights?.length).toBeGreaterThan(0);
  });

  it('answers a blank query 400 and a missing one or a limit out of 1..25 with 422', async () => {
    expect((await call(base, 'GET', '/v1/docs/search?q=%20%20')).status).toBe(400);
    const missing = await call(base, 'GET', '/v1/docs/search');
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ error: { code: 'E01001' } });
    expect(
      (missing.body as { error: { details: Array<{ param: string }> } }).error.details.every(
        (d) => d.param === 'q',
      ),
    ).toBe(true);
    for (const limit of [0, 26]) {
      const response = await call(base, 'GET', `/v1/docs/search?q=errors&limit=${limit}`);
      expect({ limit, status: response.status }).toEqual({ limit, status: 422 });
      expect(response.body).toMatchObject({
        error: { code: 'E01001', details: [{ param: 'limit', message: expect.any(String) }] },
      });
    }
    for (const limit of [1, 25])
      expect((await call(base, 'GET', `/v1/docs/search?q=errors&limit=${limit}`)).status).toBe(200);
    expect((await call(base, 'GET', '/v1/docs/search?q=errors&contents=everything')).status).toBe(
      422,
    );
  });

  it('reads pages, 404s an unknown slug, and resolves the doc_url of every error code', async () => {
    const index = await call<{ markdown: string }>(base, 'GET', '/v1/docs/pages?slug=index');
    expect(index.status).toBe(200);
    expect(index.body.markdown).toContain('#');
    const unknown = await call(base, 'GET', '/v1/docs/pages?slug=no/such-page');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { type: 'not_found_error', code: 'E04002' } });
    for (const code of Object.keys(ErrorCatalog)) {
      const page = await call<{ markdown: string }>(
        base,
        'GET',
        `/v1/docs/pages?slug=errors/${code}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.markdown).toContain(code);
    }
  });

  it('serves the raw Markdown at markdown_url', async () => {
    const search = await call<{ data: SearchResult[] }>(
      base,
      'GET',
      '/v1/docs/search?q=idempotency',
    );
    const { markdown_url: markdownUrl } = search.body.data[0];
    expect(markdownUrl).toContain('guides/idempotency');
    const response = await call<string>(base, 'GET', markdownUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/markdown');
    expect(response.body).toMatch(/^# /m);
  });
});
