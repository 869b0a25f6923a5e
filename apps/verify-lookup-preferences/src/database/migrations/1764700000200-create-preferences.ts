import { outboxTable } from '@switchboard/background';
import { idempotencyRecordsTable } from '@switchboard/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The lookup migration (1764700000100) may create the same idempotency table: either runs first. */
function ifMissing(ddl: string): string {
  return ddl
    .replace(/CREATE TABLE /g, 'CREATE TABLE IF NOT EXISTS ')
    .replace(/CREATE INDEX /g, 'CREATE INDEX IF NOT EXISTS ');
}

/**
 * The preference ledger: one current row per key (workspace, channel, handle, sender scope,
 * topic), kept after a delete with `deleted_at` so the key's order survives it, and every
 * transition (applied or refused) behind it. The outbox carries `preference.*` events.
 */
export class CreatePreferences1764700000200 implements MigrationInterface {
  name = 'CreatePreferences1764700000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ${ifMissing(idempotencyRecordsTable('verify_lookup_preferences'))}
      ${ifMissing(outboxTable('verify_lookup_preferences'))}

      CREATE TABLE verify_lookup_preferences.preferences (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        channel text NOT NULL,
        handle text NOT NULL,
        sender_scope text,
        topic_id text,
        status text NOT NULL CHECK (status IN ('granted', 'revoked')),
        coverage text NOT NULL CHECK (coverage IN ('all', 'non_transactional')),
        origin text NOT NULL,
        source text,
        consented_at timestamptz,
        effective_at timestamptz NOT NULL,
        contact_id text,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE UNIQUE INDEX preferences_key_idx ON verify_lookup_preferences.preferences
        (workspace_id, channel, handle, COALESCE(sender_scope, ''), COALESCE(topic_id, ''));
      CREATE INDEX preferences_list_idx ON verify_lookup_preferences.preferences
        (workspace_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

      CREATE TABLE verify_lookup_preferences.preference_transitions (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        preference_id text NOT NULL REFERENCES verify_lookup_preferences.preferences (id),
        kind text NOT NULL CHECK (kind IN ('granted', 'revoked', 'deleted')),
        applied boolean NOT NULL,
        coverage text NOT NULL,
        origin text NOT NULL,
        source text,
        consented_at timestamptz,
        effective_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX preference_transitions_key_idx
        ON verify_lookup_preferences.preference_transitions (preference_id, recorded_at);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE verify_lookup_preferences.preference_transitions;
      DROP TABLE verify_lookup_preferences.preferences;
    `);
  }
}
