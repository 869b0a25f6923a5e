import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a message came from, shared by templates, broadcasts and tracking (issue 21): the
 * template version pinned at accept with the language asked for and the one rendered, and the
 * broadcast a recipient's copy belongs to (its recipients, counters and clicked links are read
 * through this index).
 */
export class MessageOrigins1764900000050 implements MigrationInterface {
  name = 'MessageOrigins1764900000050';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE email.messages
        ADD COLUMN template_id text,
        ADD COLUMN template_version_id text,
        ADD COLUMN requested_language text,
        ADD COLUMN resolved_language text,
        ADD COLUMN broadcast_id text;
      CREATE INDEX messages_broadcast_idx ON email.messages (broadcast_id, id)
        WHERE broadcast_id IS NOT NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX email.messages_broadcast_idx;
      ALTER TABLE email.messages DROP COLUMN template_id, DROP COLUMN template_version_id,
        DROP COLUMN requested_language, DROP COLUMN resolved_language, DROP COLUMN broadcast_id;
    `);
  }
}
