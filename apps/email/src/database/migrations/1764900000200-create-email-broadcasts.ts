import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email broadcasts: the broadcast (draft to final state) with its preparation's progress (the
 * snapshot time and the last contact prepared, so a crash resumes from the last committed page),
 * and on each message the contact it was prepared for: one message per (broadcast, contact),
 * enforced, so a resumed or repeated page never creates a recipient's message twice.
 */
export class CreateEmailBroadcasts1764900000200 implements MigrationInterface {
  name = 'CreateEmailBroadcasts1764900000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email.broadcasts (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        from_email text,
        from_name text,
        audience_id text,
        template_id text,
        template_version_id text,
        category text NOT NULL,
        ip_pool_id text,
        reply_to jsonb NOT NULL DEFAULT '[]',
        headers jsonb NOT NULL DEFAULT '{}',
        tags jsonb NOT NULL DEFAULT '[]',
        metadata jsonb,
        track_opens boolean NOT NULL,
        track_clicks boolean NOT NULL,
        status text NOT NULL,
        failure_reason text,
        failure_detail text,
        recipient_count int NOT NULL DEFAULT 0,
        snapshot_at timestamptz,
        prepared_after text,
        prepared_at timestamptz,
        created_at timestamptz NOT NULL,
        scheduled_at timestamptz,
        started_at timestamptz,
        sent_at timestamptz,
        canceled_at timestamptz
      );
      CREATE INDEX broadcasts_workspace_created_idx
        ON email.broadcasts (workspace_id, created_at DESC, id DESC);
      CREATE INDEX broadcasts_template_idx
        ON email.broadcasts (workspace_id, template_id, created_at DESC, id DESC)
        WHERE template_id IS NOT NULL;
      CREATE INDEX broadcasts_tags_idx ON email.broadcasts USING gin (tags jsonb_path_ops);

      ALTER TABLE email.messages ADD COLUMN contact_id text;
      CREATE UNIQUE INDEX messages_broadcast_contact_idx ON email.messages (broadcast_id, contact_id)
        WHERE broadcast_id IS NOT NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX email.messages_broadcast_contact_idx;
      ALTER TABLE email.messages DROP COLUMN contact_id;
      DROP TABLE email.broadcasts;
    `);
  }
}
