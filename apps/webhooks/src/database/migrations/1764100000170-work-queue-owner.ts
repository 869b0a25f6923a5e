import { workQueueOwnerColumn } from '@switchboard/background';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Jobs name the worker that runs them (`locked_by`, issue 17), so a restarted or surviving
 * process takes over a dead one's deliveries at once instead of after their lease (ADR 5).
 */
export class WorkQueueOwner1764100000170 implements MigrationInterface {
  name = 'WorkQueueOwner1764100000170';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(workQueueOwnerColumn('webhooks'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhooks.jobs DROP COLUMN locked_by');
  }
}
