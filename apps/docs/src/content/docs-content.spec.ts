import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCatalog } from '@switchboard/contracts';
import { loadDocsContent } from './docs-content';

describe(loadDocsContent.name, () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docs-content-'));
    await mkdir(join(dir, 'adr'));
    await mkdir(join(dir, 'reference'));
    await writeFile(join(dir, 'index.md'), '# Home\n\nSee [the decision](adr/0001-nats.md).\n');
    await writeFile(join(dir, 'adr', '0001-nats.md'), '# Use NATS\n\nBecause.\n');
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('loads every Markdown file by slug, the error pages and the API reference', async () => {
    await writeFile(
      join(dir, 'reference', 'openapi.json'),
      JSON.stringify({ openapi: '3.1.0', paths: { '/healthz': { get: { summary: 'Liveness' } } } }),
    );
    const warn = jest.fn();
    const pages = await loadDocsContent(dir, { warn });
    const slugs = pages.map((page) => page.slug);
    expect(slugs).toEqual(
      expect.arrayContaining(['index', 'adr/0001-nats', 'errors', 'reference/api']),
    );
    expect(slugs.filter((slug) => slug.startsWith('errors/'))).toHaveLength(
      Object.keys(ErrorCatalog).length,
    );
    expect(pages.find((page) => page.slug === 'index')?.markdown).toContain(
      '(/v1/docs/pages?slug=adr/0001-nats)',
    );
    expect(pages.find((page) => page.slug === 'reference/api')?.sections[1]?.heading).toBe(
      'GET /healthz',
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it('leaves out the API reference with a warning when openapi.json is missing or broken', async () => {
    const warn = jest.fn();
    expect((await loadDocsContent(dir, { warn })).map((page) => page.slug)).not.toContain(
      'reference/api',
    );
    await writeFile(join(dir, 'reference', 'openapi.json'), '{ not json');
    expect((await loadDocsContent(dir, { warn })).map((page) => page.slug)).not.toContain(
      'reference/api',
    );
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('indexes only the generated pages when the folder does not exist', async () => {
    const warn = jest.fn();
    const pages = await loadDocsContent(join(dir, 'missing'), { warn });
    expect(pages.map((page) => page.slug)).toContain('errors/E01001');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('does not exist'));
  });
});
