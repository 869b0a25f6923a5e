import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The messages handed to a carrier and still waiting for their final receipt, oldest first:
 * what the receipt time-out sweeps (`ReceiptTimeouts`). Only those are in the index.
 */
export class SmsAwaitingReceipt1765000000100 implements MigrationInterface {
  name = 'SmsAwaitingReceipt1765000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX sms_messages_awaiting_receipt_idx ON sms_whatsapp.sms_messages (sent_at)
        WHERE status = 'sent';
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sms_whatsapp.sms_messages_awaiting_receipt_idx;`);
  }
}
