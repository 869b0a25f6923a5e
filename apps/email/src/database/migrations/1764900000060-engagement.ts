import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Engagement shared by tracking and broadcasts (issue 21): each recipient's opens that were not
 * an inbox's prefetch (a broadcast's unique opens count these), and one row per tracked click,
 * read per broadcast as clicked links (url, link name, distinct recipients).
 */
export class Engagement1764900000060 implements MigrationInterface {
  name = 'Engagement1764900000060';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE email.recipients
        ADD COLUMN human_open_count int NOT NULL DEFAULT 0,
        ADD COLUMN first_opened_at timestamptz,
        ADD COLUMN first_clicked_at timestamptz;
      CREATE TABLE email.link_clicks (
        id bigserial PRIMARY KEY,
        workspace_id text NOT NULL,
        message_id text NOT NULL REFERENCES email.messages(id) ON DELETE CASCADE,
        recipient_id text NOT NULL,
        broadcast_id text,
        url text NOT NULL,
        link_name text,
        clicked_at timestamptz NOT NULL
      );
      CREATE INDEX link_clicks_message_idx ON email.link_clicks (message_id);
      CREATE INDEX link_clicks_broadcast_idx ON email.link_clicks (broadcast_id, url)
        WHERE broadcast_id IS NOT NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE email.link_clicks;
      ALTER TABLE email.recipients DROP COLUMN human_open_count, DROP COLUMN first_opened_at,
        DROP COLUMN first_clicked_at;
    `);
  }
}
