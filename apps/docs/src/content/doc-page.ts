import { posix } from 'node:path';
import type { MarkdownSection } from './markdown-sections';
import { splitSections } from './markdown-sections';

/** The content is written in one locale; other locales have no pages yet. */
export const CONTENT_LOCALE = 'en-us';

export interface DocPage {
  /** Path under docs/ without `.md`: `guides/idempotency`, `errors/E01001`, `index`. */
  slug: string;
  title: string;
  markdown: string;
  sections: MarkdownSection[];
}

/** Where the gateway serves a page; slugs are path-like, so only their segments are encoded. */
export function pageUrl(slug: string, anchor?: string): string {
  const path = slug.split('/').map(encodeURIComponent).join('/');
  return `/v1/docs/pages?slug=${path}${anchor ? `#${anchor}` : ''}`;
}

export function markdownUrl(slug: string): string {
  return `${pageUrl(slug)}&format=markdown`;
}

/**
 * Points relative links between Markdown files (`../guides/errors.md#retries`) at the page API,
 * so they work for readers of the API as they do for readers of the repository.
 */
export function rewriteRelativeLinks(markdown: string, slug: string): string {
  return markdown.replace(
    /\]\(([^)\s#:]+)\.md(#[^)\s]*)?\)/g,
    (link, target: string, anchor = '') => {
      if (target.startsWith('/')) return link;
      const resolved = posix.normalize(posix.join(posix.dirname(slug), target));
      if (resolved.startsWith('..')) return link;
      return `](${pageUrl(resolved)}${anchor as string})`;
    },
  );
}

export function buildDocPage(slug: string, source: string): DocPage {
  const markdown = rewriteRelativeLinks(source, slug);
  const { title, sections } = splitSections(markdown, slug);
  return { slug, title: title ?? slug, markdown, sections };
}
