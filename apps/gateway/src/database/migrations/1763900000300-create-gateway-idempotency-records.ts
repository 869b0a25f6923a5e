import { idempotencyRecordsTable } from '@switchboard/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The gateway's own writes (operator API) claim idempotency keys in their transaction too. */
export class CreateGatewayIdempotencyRecords1763900000300 implements MigrationInterface {
  name = 'CreateGatewayIdempotencyRecords1763900000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(idempotencyRecordsTable('gateway'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE gateway.idempotency_records');
  }
}
