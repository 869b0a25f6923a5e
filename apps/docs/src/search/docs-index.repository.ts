import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DocPage } from '../content/doc-page';

export interface SectionHit {
  slug: string;
  anchor: string;
  page_title: string;
  heading: string;
  score: number;
  snippet: string;
  highlights: string | null;
}

export interface StoredPage {
  slug: string;
  locale: string;
  title: string;
  markdown: string;
}

/** Separates the fragments of one ts_headline; a character the content never contains. */
export const FRAGMENT_DELIMITER = '\u241E';

/**
 * Architecture decision records explain why the system is built as it is; a reader searching a
 * topic wants the guide that tells how to use it, so decision records rank at half weight.
 */
const ADR_RANK_FACTOR = 0.5;

/** ts_rank weights for D, C, B, A: titles and headings (A) count 2.5 times bodies (B). */
const RANK_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
const SNIPPET_OPTIONS = 'MaxFragments=1, MaxWords=30, MinWords=20, StartSel="", StopSel=""';
const HIGHLIGHT_OPTIONS = `MaxFragments=3, MaxWords=20, MinWords=8, StartSel=**, StopSel=**, FragmentDelimiter="${FRAGMENT_DELIMITER}"`;

/** The docs schema: the pages and their sections with an english full-text vector. */
@Injectable()
export class DocsIndexRepository {
  constructor(@InjectDataSource('docs') private readonly dataSource: DataSource) {}

  /**
   * Replaces one locale's content in a single transaction, so searches see the old index or the
   * new one, never a mix. The advisory lock serialises replicas that start together.
   */
  async replaceLocale(locale: string, pages: DocPage[]): Promise<void> {
    const sections = pages.flatMap((page) =>
      page.sections.map((section, position) => ({ page, section, position })),
    );
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['switchboard:docs:index']);
      await manager.query('DELETE FROM docs.pages WHERE locale = $1', [locale]);
      await manager.query(
        `INSERT INTO docs.pages (locale, slug, title, markdown)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])`,
        [locale, pages.map((p) => p.slug), pages.map((p) => p.title), pages.map((p) => p.markdown)],
      );
      await manager.query(
        `INSERT INTO docs.sections (locale, slug, position, page_title, heading, anchor, markdown, body)
         SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])`,
        [
          locale,
          sections.map((s) => s.page.slug),
          sections.map((s) => s.position),
          sections.map((s) => s.page.title),
          sections.map((s) => s.section.heading),
          sections.map((s) => s.section.anchor),
          sections.map((s) => s.section.markdown),
          sections.map((s) => s.section.text),
        ],
      );
    });
  }

  /**
   * Ranks sections against a web-search style query. A query without lexemes (only stop words)
   * matches nothing. Headlines are computed for the returned rows only: they are the costly part.
   */
  async search(query: {
    q: string;
    locale: string;
    limit: number;
    highlights: boolean;
  }): Promise<SectionHit[]> {
    return this.dataSource.query(
      `WITH query AS (SELECT websearch_to_tsquery('english', $1) AS tsq),
       ranked AS (
         SELECT s.slug, s.position, s.anchor, s.page_title, s.heading, s.body, query.tsq,
                ts_rank('${RANK_WEIGHTS}', s.search, query.tsq) * CASE WHEN s.slug LIKE 'adr/%' THEN ${ADR_RANK_FACTOR} ELSE 1 END AS score
         FROM docs.sections s, query
         WHERE s.locale = $2 AND numnode(query.tsq) > 0 AND s.search @@ query.tsq
         ORDER BY score DESC, s.slug, s.position
         LIMIT $3
       )
       SELECT slug, anchor, page_title, heading, score,
              ts_headline('english', body, tsq, '${SNIPPET_OPTIONS}') AS snippet,
              CASE WHEN $4::boolean THEN ts_headline('english', body, tsq, '${HIGHLIGHT_OPTIONS}') END AS highlights
       FROM ranked
       ORDER BY score DESC, slug, position`,
      [query.q, query.locale, query.limit, query.highlights],
    );
  }

  /** Every page of a locale by slug, for the directory on the index page. */
  async listPages(locale: string): Promise<Array<{ slug: string; title: string }>> {
    return this.dataSource.query(
      'SELECT slug, title FROM docs.pages WHERE locale = $1 ORDER BY slug COLLATE "C"',
      [locale],
    );
  }

  async findPage(locale: string, slug: string): Promise<StoredPage | undefined> {
    const rows: StoredPage[] = await this.dataSource.query(
      'SELECT slug, locale, title, markdown FROM docs.pages WHERE locale = $1 AND slug = $2',
      [locale, slug],
    );
    return rows[0];
  }
}
