import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A person's own statement reaches the ledger as a bus event, delivered at least once: its
 * transition names the event, once (a redelivery finds it and records nothing more).
 */
export class AddPreferenceTransitionSourceEvents1764800000400 implements MigrationInterface {
  name = 'AddPreferenceTransitionSourceEvents1764800000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE verify_lookup_preferences.preference_transitions ADD COLUMN source_event_id text;
      CREATE UNIQUE INDEX preference_transitions_source_event_idx
        ON verify_lookup_preferences.preference_transitions (workspace_id, source_event_id)
        WHERE source_event_id IS NOT NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX verify_lookup_preferences.preference_transitions_source_event_idx;
      ALTER TABLE verify_lookup_preferences.preference_transitions DROP COLUMN source_event_id;
    `);
  }
}
