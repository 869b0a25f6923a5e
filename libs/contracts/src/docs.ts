export type DocsContents = 'snippet' | 'highlights';

export interface DocsSearchRequest {
  q: string;
  locale: string;
  limit: number;
  contents: DocsContents;
}

export interface DocsSearchResult {
  title: string;
  section: string;
  slug: string;
  anchor: string;
  url: string;
  markdown_url: string;
  snippet: string;
  highlights?: string[];
  score: number;
}

export interface DocsSearchResponse {
  data: DocsSearchResult[];
}

export interface DocsPageRequest {
  slug: string;
  locale: string;
}

export interface DocsPage {
  slug: string;
  locale: string;
  title: string;
  markdown: string;
  markdown_url: string;
}
