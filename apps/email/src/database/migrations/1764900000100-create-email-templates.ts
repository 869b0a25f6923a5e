import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email templates (issue 21): a template, its versions (one `draft` edited in place, the
 * `published` ones frozen), and each version's languages. `live_version_id` is the published
 * version sends resolve to. Deleting a template deletes its versions and languages and frees
 * its slug. Every row carries its workspace, and every query is scoped by it.
 */
export class CreateEmailTemplates1764900000100 implements MigrationInterface {
  name = 'CreateEmailTemplates1764900000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email.templates (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        slug text NOT NULL,
        name text NOT NULL,
        description text,
        category text NOT NULL,
        source text NOT NULL,
        on_missing_language text NOT NULL DEFAULT 'fallback',
        language_source_required boolean NOT NULL DEFAULT false,
        draft_version_id text NOT NULL,
        live_version_id text,
        last_submitted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX templates_slug_idx ON email.templates (workspace_id, slug);
      CREATE INDEX templates_list_idx ON email.templates (workspace_id, created_at, id);

      CREATE TABLE email.template_versions (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        template_id text NOT NULL REFERENCES email.templates (id) ON DELETE CASCADE,
        status text NOT NULL,
        version_number int,
        revision int NOT NULL DEFAULT 1,
        default_language text NOT NULL,
        variables jsonb NOT NULL DEFAULT '[]',
        updated_by jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        UNIQUE (template_id, version_number)
      );
      CREATE INDEX template_versions_list_idx
        ON email.template_versions (template_id, created_at, id);

      CREATE TABLE email.template_languages (
        version_id text NOT NULL REFERENCES email.template_versions (id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        language text NOT NULL,
        subject text,
        preview_text text,
        html text,
        text text,
        revision int NOT NULL DEFAULT 1,
        content_hash text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (version_id, language)
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE email.template_languages;
      DROP TABLE email.template_versions;
      DROP TABLE email.templates;
    `);
  }
}
