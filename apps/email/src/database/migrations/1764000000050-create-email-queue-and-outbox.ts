import { idempotencyRecordsTable } from '@switchboard/persistence';
import { outboxTable, workQueueTable } from '@switchboard/background';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What every email feature writes through: the idempotency records of its writes, the work queue
 * of processing and delivery, and the outbox its events leave by.
 */
export class CreateEmailQueueAndOutbox1764000000050 implements MigrationInterface {
  name = 'CreateEmailQueueAndOutbox1764000000050';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ${idempotencyRecordsTable('email')}
      ${workQueueTable('email')}
      ${outboxTable('email')}
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE email.outbox, email.jobs, email.idempotency_records');
  }
}
