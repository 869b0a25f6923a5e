import { pageUrl } from '../content/doc-page';
import { escapeHtml } from './html-document';

const GROUPS: ReadonlyArray<{ prefix: string; heading: string }> = [
  { prefix: 'guides/', heading: 'Guides' },
  { prefix: 'reference/', heading: 'API reference' },
  { prefix: 'errors', heading: 'Error codes' },
  { prefix: 'adr/', heading: 'Architecture decisions' },
];

/**
 * The index page's list of every page, grouped, so a reader reaches each guide, the API reference
 * and each error code's page from one place. Pages outside the groups (getting started,
 * contributing) come first.
 */
export function pageDirectory(pages: ReadonlyArray<{ slug: string; title: string }>): string {
  const listed = pages.filter((page) => page.slug !== 'index');
  const groupOf = (slug: string) => GROUPS.find((group) => slug.startsWith(group.prefix));
  const sections = [
    { heading: 'Start', pages: listed.filter((page) => !groupOf(page.slug)) },
    ...GROUPS.map((group) => ({
      heading: group.heading,
      pages: listed.filter((page) => groupOf(page.slug) === group),
    })),
  ].filter((section) => section.pages.length > 0);
  const html = sections.map(({ heading, pages: inGroup }) => {
    const items = inGroup.map(
      ({ slug, title }) =>
        `<li><a href="${escapeHtml(pageUrl(slug))}">${escapeHtml(title)}</a></li>`,
    );
    return `<h3>${escapeHtml(heading)}</h3>\n<ul>\n${items.join('\n')}\n</ul>`;
  });
  return `<nav aria-labelledby="every-page">\n<h2 id="every-page">Every page</h2>\n${html.join('\n')}\n</nav>`;
}
