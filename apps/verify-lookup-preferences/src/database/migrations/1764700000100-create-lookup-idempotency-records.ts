import { idempotencyRecordsTable } from '@switchboard/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stored replies of Idempotency-Keys, which lookups replay; verify and preferences share
 * the table, so whichever of their migrations runs first creates it.
 */
export class CreateLookupIdempotencyRecords1764700000100 implements MigrationInterface {
  name = 'CreateLookupIdempotencyRecords1764700000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const exists = (await queryRunner.query(
      `SELECT to_regclass('verify_lookup_preferences.idempotency_records') IS NOT NULL AS found`,
    )) as Array<{ found: boolean }>;
    if (!exists[0]?.found)
      await queryRunner.query(idempotencyRecordsTable('verify_lookup_preferences'));
  }

  async down(): Promise<void> {
    // The table may have been created by verify or preferences, which still need it.
  }
}
