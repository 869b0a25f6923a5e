import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key stated again after its delete gets a new preference, with a new id: the SDK says an id
 * answers 404 after a delete, "which removes the record its ID pointed at". One live row per key
 * (the unique index now skips deleted rows); the deleted ones stay, with their transitions, and
 * the latest of them still orders what may come after it.
 */
export class PreferenceIdPerLife1764800000700 implements MigrationInterface {
  name = 'PreferenceIdPerLife1764800000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX verify_lookup_preferences.preferences_key_idx;
      CREATE UNIQUE INDEX preferences_key_idx ON verify_lookup_preferences.preferences
        (workspace_id, channel, handle, COALESCE(sender_scope, ''), COALESCE(topic_id, ''))
        WHERE deleted_at IS NULL;
      CREATE INDEX preferences_key_lives_idx ON verify_lookup_preferences.preferences
        (workspace_id, channel, handle, COALESCE(sender_scope, ''), COALESCE(topic_id, ''),
         deleted_at DESC);
    `);
  }

  /** Only while no key has lived twice: the old index allows one row per key, deleted or not. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX verify_lookup_preferences.preferences_key_lives_idx;
      DROP INDEX verify_lookup_preferences.preferences_key_idx;
      CREATE UNIQUE INDEX preferences_key_idx ON verify_lookup_preferences.preferences
        (workspace_id, channel, handle, COALESCE(sender_scope, ''), COALESCE(topic_id, ''));
    `);
  }
}
