import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The workspace suppression list: one row per (workspace, address, reason). The address is
 * stored lowercased under the "C" collation, so the unique index also serves the send path's
 * `email = ANY(...)` lookup and the list's prefix filter (`LIKE 'abc%'`).
 */
export class CreateEmailSuppressions1764000000200 implements MigrationInterface {
  name = 'CreateEmailSuppressions1764000000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email.suppressions (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        email text COLLATE "C" NOT NULL,
        scope_type text NOT NULL DEFAULT 'workspace',
        reason text NOT NULL
          CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribe', 'manual')),
        origin text NOT NULL,
        applies_to text NOT NULL CHECK (applies_to IN ('all', 'non_transactional')),
        source_email_id text,
        source_recipient_id text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT suppressions_workspace_email_reason_key UNIQUE (workspace_id, email, reason)
      );
      CREATE INDEX suppressions_workspace_created_idx
        ON email.suppressions (workspace_id, created_at DESC, id DESC);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE email.suppressions');
  }
}
