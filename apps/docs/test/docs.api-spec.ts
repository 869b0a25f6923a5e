import { resolve } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { DocsSubjects, ErrorCatalog } from '@switchboard/contracts';
import type {
  DocsPage,
  DocsSearchRequest,
  DocsSearchResponse,
  RequestContext,
} from '@switchboard/contracts';
import type { RunningPostgres } from '@switchboard/testing';
import {
  createLogger,
  InProcessBus,
  loadConfig,
  PinoNestLogger,
  ServiceClient,
  startService,
} from '@switchboard/platform';
import { startTestPostgres } from '@switchboard/testing';
import { docsEnv } from '../src/config/docs.config';
import { docsService } from '../src/docs.service-process';

const context: RequestContext = { requestId: 'req_test', caller: { kind: 'anonymous' } };

describe('docs service', () => {
  let postgres: RunningPostgres;
  let app: INestApplicationContext;
  let client: ServiceClient;

  const search = (
    request: Pick<DocsSearchRequest, 'q'> & Partial<DocsSearchRequest>,
  ): Promise<DocsSearchResponse> =>
    client.send(
      DocsSubjects.Search,
      { locale: 'en-us', limit: 10, contents: 'snippet', ...request },
      context,
    );
  const readPage = (slug: string, locale = 'en-us'): Promise<DocsPage> =>
    client.send(DocsSubjects.ReadPage, { slug, locale }, context);

  beforeAll(async () => {
    // The embedded PostgreSQL runs in a child process: jest's sandbox cannot load its ESM package.
    postgres = await startTestPostgres();
    const config = loadConfig(docsEnv, {
      DATABASE_URL: postgres.url,
      DOCS_DIR: resolve(__dirname, '../../../docs'),
    });
    await docsService.migrate(config);
    const bus = new InProcessBus();
    app = await startService({
      name: 'docs',
      module: docsService.module(config),
      transport: { kind: 'in-process', bus, timeoutMs: 5000 },
      logger: new PinoNestLogger(createLogger('docs', 'silent')),
    });
    client = new ServiceClient({ kind: 'in-process', bus, timeoutMs: 5000 }, 'test');
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await postgres?.stop();
  });

  it('ranks the idempotency guide first for "idempotency", above the error pages that mention the header', async () => {
    const { data } = await search({ q: 'idempotency', limit: 25 });
    expect(data[0]).toMatchObject({
      title: 'Idempotency',
      section: 'Idempotency',
      slug: 'guides/idempotency',
      anchor: 'idempotency',
      url: '/v1/docs/pages?slug=guides/idempotency#idempotency',
      markdown_url: '/v1/docs/pages?slug=guides/idempotency&format=markdown',
    });
    const errorPages = data.filter((result) =>
      ['errors/E01004', 'errors/E01005'].includes(result.slug),
    );
    expect(errorPages).toHaveLength(2);
    for (const page of errorPages) expect(page.score).toBeLessThan(data[0].score);
  });

  it('returns plain-text snippets, and highlights only when contents=highlights', async () => {
    const plain = await search({ q: 'idempotency', limit: 3 });
    expect(plain.data).toHaveLength(3);
    for (const result of plain.data) {
      expect(result.highlights).toBeUndefined();
      expect(result.snippet).not.toMatch(/\*\*|`|\[/);
    }
    const highlighted = await search({ q: 'replayed', contents: 'highlights', limit: 3 });
    expect(highlighted.data[0].highlights?.length).toBeGreaterThan(0);
    for (const passage of highlighted.data[0].highlights ?? [])
      expect(passage).toContain('**replayed**');
  });

  it('returns no results for a query of stop words only, or for a locale without content', async () => {
    expect((await search({ q: 'the and of' })).data).toEqual([]);
    expect((await search({ q: 'idempotency', locale: 'de-de' })).data).toEqual([]);
  });

  it('reads a page by slug with its Markdown', async () => {
    const page = await readPage('guides/idempotency');
    expect(page).toMatchObject({
      slug: 'guides/idempotency',
      locale: 'en-us',
      title: 'Idempotency',
      markdown_url: '/v1/docs/pages?slug=guides/idempotency&format=markdown',
    });
    expect(page.markdown).toMatch(/^# Idempotency\n/);
    expect((await readPage('index')).title).toBe('Switchboard documentation');
  });

  it('serves a page for every error code and an index of them', async () => {
    for (const [code, error] of Object.entries(ErrorCatalog)) {
      const page = await readPage(`errors/${code}`);
      expect(page.title).toBe(`${code} ${error.name}`);
      expect(page.markdown).toContain(`HTTP status: ${error.status}`);
    }
    expect((await readPage('errors')).markdown).toContain(
      '[E05004](/v1/docs/pages?slug=errors/E05004)',
    );
  });

  it('answers E04002 for an unknown slug and for a locale without content', async () => {
    await expect(readPage('guides/nope')).rejects.toMatchObject({ code: 'E04002' });
    await expect(readPage('index', 'de-de')).rejects.toMatchObject({ code: 'E04002' });
  });
});
