import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { DocPage } from './doc-page';
import { buildDocPage } from './doc-page';
import { errorPages } from './error-pages';
import type { OpenApiDocument } from './openapi-markdown';
import { renderOpenApiMarkdown } from './openapi-markdown';

export interface ContentLog {
  warn(message: string): void;
}

/** The gateway generates and commits this file; the reference page is rendered from it. */
const OPENAPI_FILE = 'reference/openapi.json';

/**
 * Everything the docs service serves: the Markdown files under `docsDir` (slug = path without
 * `.md`), one page per error code plus their index, and the API reference. A missing folder or
 * OpenAPI document leaves its pages out with a warning rather than taking search down.
 */
export async function loadDocsContent(docsDir: string, log: ContentLog): Promise<DocPage[]> {
  const root = resolve(docsDir);
  const pages = new Map<string, DocPage>();
  const add = (page: DocPage): void => {
    if (pages.has(page.slug))
      log.warn(`docs: two pages have the slug ${page.slug}; the second is left out`);
    else pages.set(page.slug, page);
  };
  for (const file of await markdownFiles(root, log)) {
    const slug = relative(root, file).split(sep).join('/').replace(/\.md$/, '');
    add(buildDocPage(slug, await readFile(file, 'utf8')));
  }
  errorPages().forEach(add);
  const reference = await apiReferencePage(root, log);
  if (reference) add(reference);
  return [...pages.values()];
}

async function markdownFiles(root: string, log: ContentLog): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    log.warn(`docs: the folder ${root} does not exist; only generated pages are indexed`);
    return [];
  }
}

async function apiReferencePage(root: string, log: ContentLog): Promise<DocPage | undefined> {
  const path = join(root, OPENAPI_FILE);
  let document: OpenApiDocument;
  try {
    document = JSON.parse(await readFile(path, 'utf8')) as OpenApiDocument;
  } catch (err) {
    const problem =
      (err as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'is missing'
        : `cannot be read (${(err as Error).message})`;
    log.warn(`docs: ${path} ${problem}; the API reference page is left out`);
    return undefined;
  }
  return buildDocPage('reference/api', renderOpenApiMarkdown(document));
}
