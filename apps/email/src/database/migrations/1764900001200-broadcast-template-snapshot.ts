import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a broadcast's pinned template version held (its row and its languages' content), kept
 * with the broadcast when it starts sending: its preparation, resumed after a restart, reads it
 * there, so the template may be deleted meanwhile, as the SDK allows. Null on broadcasts that
 * started before it existed; those read the version itself, as before.
 */
export class BroadcastTemplateSnapshot1764900001200 implements MigrationInterface {
  name = 'BroadcastTemplateSnapshot1764900001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE email.broadcasts ADD COLUMN template_snapshot jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE email.broadcasts DROP COLUMN template_snapshot');
  }
}
