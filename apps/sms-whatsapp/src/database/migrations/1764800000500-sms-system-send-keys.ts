import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Another service's system send names a key of its own (the verify service: the passcode
 * attempt's id); the same key asked again answers the message already stored instead of a
 * second one. Looked up per workspace and key; only keyed messages are in the index.
 */
export class SmsSystemSendKeys1764800000500 implements MigrationInterface {
  name = 'SmsSystemSendKeys1764800000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX sms_messages_idempotency_key_idx ON sms_whatsapp.sms_messages
        (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sms_whatsapp.sms_messages_idempotency_key_idx;`);
  }
}
