import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message whose template has sensitive slots (a one-time passcode) keeps the body with their
 * values only until a carrier has it: `redacted_text`, the body with each sensitive value left
 * as its placeholder, replaces `text` once the message is handed over or refused.
 */
export class SmsRedactedText1765000000200 implements MigrationInterface {
  name = 'SmsRedactedText1765000000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sms_whatsapp.sms_messages ADD COLUMN redacted_text text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sms_whatsapp.sms_messages DROP COLUMN redacted_text`);
  }
}
