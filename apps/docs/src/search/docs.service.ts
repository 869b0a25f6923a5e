import { Injectable } from '@nestjs/common';
import { DocsErrors } from '@switchboard/contracts';
import type {
  DocsPage,
  DocsPageRequest,
  DocsSearchRequest,
  DocsSearchResponse,
  DocsSearchResult,
} from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { markdownUrl, pageUrl } from '../content/doc-page';
import type { SectionHit } from './docs-index.repository';
import { DocsIndexRepository, FRAGMENT_DELIMITER } from './docs-index.repository';
import { DocsIndexer } from './docs-indexer';

/** Search and page reads over the index; both refuse with E05004 until the index is built. */
@Injectable()
export class DocsService {
  constructor(
    private readonly indexer: DocsIndexer,
    private readonly repository: DocsIndexRepository,
  ) {}

  async search(request: DocsSearchRequest): Promise<DocsSearchResponse> {
    this.assertIndexed();
    const hits = await this.repository.search({
      q: request.q,
      locale: request.locale.toLowerCase(),
      limit: request.limit,
      highlights: request.contents === 'highlights',
    });
    return { data: hits.map((hit) => toSearchResult(hit, request.contents === 'highlights')) };
  }

  async readPage(request: DocsPageRequest): Promise<DocsPage> {
    this.assertIndexed();
    const page = await this.repository.findPage(request.locale.toLowerCase(), request.slug);
    if (!page) throw new AppError(DocsErrors.DocsPageNotFound);
    return { ...page, markdown_url: markdownUrl(page.slug) };
  }

  private assertIndexed(): void {
    if (!this.indexer.ready) throw new AppError(DocsErrors.DocsIndexUnavailable);
  }
}

function toSearchResult(hit: SectionHit, withHighlights: boolean): DocsSearchResult {
  const result: DocsSearchResult = {
    title: hit.page_title,
    section: hit.heading,
    slug: hit.slug,
    anchor: hit.anchor,
    url: pageUrl(hit.slug, hit.anchor),
    markdown_url: markdownUrl(hit.slug),
    snippet: hit.snippet,
    score: hit.score,
  };
  if (withHighlights) {
    // ts_headline falls back to the opening words when only the title or heading matched.
    result.highlights = (hit.highlights ?? '')
      .split(FRAGMENT_DELIMITER)
      .map((part) => part.trim())
      .filter((part) => part.includes('**'));
  }
  return result;
}
