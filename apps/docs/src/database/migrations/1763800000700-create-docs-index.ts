import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The documentation index, rebuilt from the content at every start. Titles and headings weigh A
 * and bodies B, so a section about a topic outranks pages that merely mention it.
 */
export class CreateDocsIndex1763800000700 implements MigrationInterface {
  name = 'CreateDocsIndex1763800000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "docs"');
    await queryRunner.query(`
      CREATE TABLE docs.pages (
        locale text NOT NULL,
        slug text NOT NULL,
        title text NOT NULL,
        markdown text NOT NULL,
        PRIMARY KEY (locale, slug)
      )`);
    // `body` is the section's plain text, so snippets and highlights carry no Markdown syntax.
    await queryRunner.query(`
      CREATE TABLE docs.sections (
        locale text NOT NULL,
        slug text NOT NULL,
        position integer NOT NULL,
        page_title text NOT NULL,
        heading text NOT NULL,
        anchor text NOT NULL,
        markdown text NOT NULL,
        body text NOT NULL,
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english'::regconfig, page_title), 'A') ||
          setweight(to_tsvector('english'::regconfig, heading), 'A') ||
          setweight(to_tsvector('english'::regconfig, body), 'B')
        ) STORED,
        PRIMARY KEY (locale, slug, position),
        FOREIGN KEY (locale, slug) REFERENCES docs.pages (locale, slug) ON DELETE CASCADE
      )`);
    await queryRunner.query('CREATE INDEX sections_search_idx ON docs.sections USING gin (search)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS "docs" CASCADE');
  }
}
