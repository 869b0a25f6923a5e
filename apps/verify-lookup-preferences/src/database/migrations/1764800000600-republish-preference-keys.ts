import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The channels' projections of the ledger (ADR 14) start empty and follow `preference.*` events:
 * a key stated before they existed would never be enforced. This writes one
 * `internal.preference.snapshot` per key the ledger holds (its current statement, or `deleted`,
 * with its last applied transition) to the outbox; the projections apply them like any
 * statement (a key only moves forward, so a snapshot older than what they hold changes nothing),
 * and no webhook sees them.
 */
export class RepublishPreferenceKeys1764800000600 implements MigrationInterface {
  name = 'RepublishPreferenceKeys1764800000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      INSERT INTO verify_lookup_preferences.outbox (id, type, payload, workspace_id)
      SELECT 'ev_snapshot_' || p.id || '_' || t.id, 'internal.preference.snapshot',
        jsonb_build_object(
          'type', 'internal.preference.snapshot',
          'timestamp', to_char(p.effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', jsonb_build_object(
            'preference_id', p.id, 'transition_id', t.id, 'channel', p.channel,
            'handle', p.handle, 'sender_scope', p.sender_scope, 'topic_id', p.topic_id,
            'coverage', p.coverage, 'contact_id', p.contact_id,
            'status', CASE WHEN p.deleted_at IS NULL THEN p.status ELSE 'deleted' END)),
        p.workspace_id
      FROM verify_lookup_preferences.preferences p
      JOIN LATERAL (
        SELECT id FROM verify_lookup_preferences.preference_transitions
        WHERE preference_id = p.id AND applied
        ORDER BY recorded_at DESC, id DESC LIMIT 1
      ) t ON true
      ORDER BY p.created_at;
    `);
  }

  async down(): Promise<void> {
    // Published events cannot be taken back; nothing to undo.
  }
}
