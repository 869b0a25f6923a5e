import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A system send's key (another service's `dedupe_key`: the verify service's passcode attempt)
 * gets a column of its own, unique per workspace: two replicas asked for the same key at once
 * both found no message and both stored one, and the recipient got the passcode twice. The
 * Idempotency-Key of a client's batch, on every message of the batch, stays in
 * `idempotency_key`; system sends stored before this migration are not looked up by key again.
 */
export class SmsSystemSendKeyUnique1765000000500 implements MigrationInterface {
  name = 'SmsSystemSendKeyUnique1765000000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sms_whatsapp.sms_messages ADD COLUMN system_send_key text;
      CREATE UNIQUE INDEX sms_messages_system_send_key_idx ON sms_whatsapp.sms_messages
        (workspace_id, system_send_key) WHERE system_send_key IS NOT NULL;
      DROP INDEX sms_whatsapp.sms_messages_idempotency_key_idx;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX sms_messages_idempotency_key_idx ON sms_whatsapp.sms_messages
        (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
      DROP INDEX sms_whatsapp.sms_messages_system_send_key_idx;
      ALTER TABLE sms_whatsapp.sms_messages DROP COLUMN system_send_key;
    `);
  }
}
