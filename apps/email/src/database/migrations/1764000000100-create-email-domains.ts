import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sending domains: one row per (workspace, domain name), the DKIM private key sealed, the records
 * to publish with their last check in `records`. The unique index serves the duplicate check, the
 * name sort and the send path's `domain = ANY(...)` lookup.
 */
export class CreateEmailDomains1764000000100 implements MigrationInterface {
  name = 'CreateEmailDomains1764000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email.domains (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        domain text COLLATE "C" NOT NULL,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'verified', 'failed', 'temporary_failure', 'rejected')),
        vendor text NOT NULL DEFAULT 'other',
        click_tracking boolean NOT NULL DEFAULT false,
        open_tracking boolean NOT NULL DEFAULT false,
        dkim_selector text NOT NULL,
        dkim_key_size integer NOT NULL,
        dkim_private_key_sealed text NOT NULL,
        return_path_name text NOT NULL,
        records jsonb NOT NULL,
        last_checked_at timestamptz,
        verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT domains_workspace_domain_key UNIQUE (workspace_id, domain)
      );
      CREATE INDEX domains_workspace_created_idx
        ON email.domains (workspace_id, created_at DESC, id DESC);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE email.domains');
  }
}
