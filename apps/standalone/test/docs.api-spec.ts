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

  describe('in a browser (Accept prefers text/html)', () => {
    // What Chromium sends when it navigates to a page.
    const BROWSER =
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const get = (path: string, accept = BROWSER, method = 'GET') =>
      fetch(`${base}${path}`, { method, headers: { accept } });

    it('answers the index as an HTML page linking the guides, the API reference and every error code page', async () => {
      const response = await get('/v1/docs/pages?slug=index');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('vary')).toMatch(/accept/i);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).not.toContain('unsafe');
      const html = await response.text();
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('<title>Switchboard documentation · Switchboard docs</title>');
      expect(html).toContain('<h1 id="switchboard-documentation">Switchboard documentation</h1>');
      for (const slug of [
        'getting-started',
        'guides/idempotency',
        'guides/webhooks',
        'reference/api',
      ])
        expect(html).toContain(`href="/v1/docs/pages?slug=${slug}"`);
      for (const code of Object.keys(ErrorCatalog))
        expect(html).toContain(`href="/v1/docs/pages?slug=errors/${code}"`);
    });

    it('keeps JSON for API clients: no Accept, */*, application/json, and format=markdown', async () => {
      for (const accept of ['', '*/*', 'application/json']) {
        const response = await get('/v1/docs/pages?slug=index', accept);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('vary')).toMatch(/accept/i);
        expect(await response.json()).toMatchObject({
          slug: 'index',
          markdown: expect.any(String),
        });
        const search = await get('/v1/docs/search?q=idempotency', accept);
        expect(search.headers.get('content-type')).toMatch(/^application\/json/);
        expect(((await search.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      }
      const markdown = await get('/v1/docs/pages?slug=index&format=markdown');
      expect(markdown.headers.get('content-type')).toContain('text/markdown');
    });

    it('lists search results as links to the sections, whose headings carry those anchors', async () => {
      const json = await call<{ data: Array<SearchResult & { url: string }> }>(
        base,
        'GET',
        '/v1/docs/search?q=idempotency&limit=3',
      );
      const response = await get('/v1/docs/search?q=idempotency&limit=3');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(html).toContain('value="idempotency"');
      for (const result of json.body.data)
        expect(html).toContain(`href="${result.url.replace(/&/g, '&amp;')}"`);
      const [path, anchor] = json.body.data[0].url.split('#');
      const page = await (await get(path)).text();
      expect(page).toContain(` id="${anchor}"`);
    });

    it('escapes what the reader typed and marks highlighted matches only', async () => {
      const response = await get(
        `/v1/docs/search?q=${encodeURIComponent('"><script>alert(1)</script> idempotency')}&contents=highlights`,
      );
      const html = await response.text();
      expect(html).not.toContain('<script');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).toContain('value="&quot;&gt;&lt;script&gt;');
      expect(html).toMatch(/<mark>[^<]+<\/mark>/);
    });

    it('answers HEAD like GET without a body, and errors in the JSON envelope', async () => {
      const head = await get('/v1/docs/pages?slug=index', BROWSER, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await head.text()).toBe('');
      const missing = await get('/v1/docs/pages?slug=no/such-page');
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { code: 'E04002' } });
      const blank = await get('/v1/docs/search?q=%20');
      expect(blank.status).toBe(400);
      expect(await blank.json()).toMatchObject({ error: { type: 'bad_request_error' } });
    });
  });
});
