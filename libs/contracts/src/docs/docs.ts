/** Documentation search and pages, answered by the docs service. */
export const DocsSubjects = {
  Search: 'docs.search.query',
  ReadPage: 'docs.page.read',
  /** The same two, as HTML documents for a browser. */
  RenderSearch: 'docs.search.render',
  RenderPage: 'docs.page.render',
} as const;

/** `snippet` (default): a short plain-text excerpt; `highlights`: also the matching passages. */
export type DocsContents = 'snippet' | 'highlights';

/** `docs.search.query`: the query the gateway validated (q trimmed and not blank, limit 1 to 25). */
export interface DocsSearchRequest {
  q: string;
  /** Content exists for `en-us` only; other locales find nothing. */
  locale: string;
  limit: number;
  contents: DocsContents;
}

/** One ranked section of a page. */
export interface DocsSearchResult {
  /** Title of the page the section belongs to. */
  title: string;
  /** Heading of the section (the page title for the text before the first heading). */
  section: string;
  /** Page slug, e.g. `guides/idempotency` or `errors/E01001`. */
  slug: string;
  /** GitHub-style anchor of the section heading. */
  anchor: string;
  /** `/v1/docs/pages?slug=<slug>#<anchor>` */
  url: string;
  /** `/v1/docs/pages?slug=<slug>&format=markdown` */
  markdown_url: string;
  /** About 30 words of plain text around the best match. */
  snippet: string;
  /** Only with `contents=highlights`: up to three passages, matches wrapped in `**`. */
  highlights?: string[];
  /** Relevance (Postgres ts_rank); higher is better, comparable within one response only. */
  score: number;
}

export interface DocsSearchResponse {
  data: DocsSearchResult[];
}

/** `docs.page.read` */
export interface DocsPageRequest {
  slug: string;
  locale: string;
}

export interface DocsPage {
  slug: string;
  locale: string;
  title: string;
  /** The whole page as Markdown; links between pages point at `/v1/docs/pages?slug=...`. */
  markdown: string;
  markdown_url: string;
}

/** `docs.page.render` and `docs.search.render`: a whole HTML document for a browser. */
export interface DocsHtml {
  html: string;
  /** The policy the document was written for (its inline style is allowed by hash, nothing else). */
  content_security_policy: string;
}
