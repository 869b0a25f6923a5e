import { Injectable } from '@nestjs/common';
import type {
  DocsHtml,
  DocsPageRequest,
  DocsSearchRequest,
  DocsSearchResult,
} from '@switchboard/contracts';
import { DocsIndexRepository } from '../search/docs-index.repository';
import { DocsService } from '../search/docs.service';
import { DOCS_CSP, escapeHtml, htmlDocument } from './html-document';
import { markdownToHtml } from './markdown-html';
import { pageDirectory } from './page-directory';

/** Pages and search results as HTML documents; the content and errors are DocsService's. */
@Injectable()
export class DocsHtmlService {
  constructor(
    private readonly docs: DocsService,
    private readonly repository: DocsIndexRepository,
  ) {}

  async renderPage(request: DocsPageRequest): Promise<DocsHtml> {
    const page = await this.docs.readPage(request);
    let body = markdownToHtml(page.markdown);
    if (page.slug === 'index') body += pageDirectory(await this.repository.listPages(page.locale));
    return { html: htmlDocument(page.title, body), content_security_policy: DOCS_CSP };
  }

  async renderSearch(request: DocsSearchRequest): Promise<DocsHtml> {
    const { data } = await this.docs.search(request);
    const heading = `<h1>Search results for “${escapeHtml(request.q)}”</h1>`;
    const results = data.length
      ? `<ol>\n${data.map(resultItem).join('\n')}\n</ol>`
      : '<p>No section matches. Try fewer or other words.</p>';
    return {
      html: htmlDocument(`Search: ${request.q}`, `${heading}\n${results}`, request.q),
      content_security_policy: DOCS_CSP,
    };
  }
}

/** Highlights mark matches with `**`; escaped first, so only those become markup. */
function marked(text: string): string {
  return escapeHtml(text).replace(/\*\*(.+?)\*\*/g, '<mark>$1</mark>');
}

function resultItem(result: DocsSearchResult): string {
  const label =
    result.section === result.title ? result.title : `${result.title}: ${result.section}`;
  const passages = result.highlights?.length
    ? result.highlights.map((passage) => `<p class="snippet">${marked(passage)}</p>`).join('')
    : `<p class="snippet">${escapeHtml(result.snippet)}</p>`;
  return `<li><a href="${escapeHtml(result.url)}">${escapeHtml(label)}</a>${passages}</li>`;
}
