import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The retention finds messages past their 30 days by `created_at` alone (the list's indexes lead
 * with the workspace). A range on the time-ordered ids would need the ids compared byte-wise,
 * which the database's collation need not do (Danish reads `aa` as one letter).
 */
export class SmsMessagesCreatedIndex1765000000300 implements MigrationInterface {
  name = 'SmsMessagesCreatedIndex1765000000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX sms_messages_created_idx ON sms_whatsapp.sms_messages (created_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sms_whatsapp.sms_messages_created_idx`);
  }
}
