import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An attempt no longer checks its endpoint row on insert: it belongs to its delivery (checked),
 * which belongs to the endpoint, and goes when either does (the cascades run through the
 * delivery). Every attempt's check locked the same endpoint row as every other one's in share
 * mode: 10,000 checks per 10,000 webhooks, all on one row.
 */
export class AttemptsGoWithTheirDelivery1764100000190 implements MigrationInterface {
  name = 'AttemptsGoWithTheirDelivery1764100000190';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE webhooks.attempts DROP CONSTRAINT IF EXISTS attempts_endpoint_id_fkey',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE webhooks.attempts ADD CONSTRAINT attempts_endpoint_id_fkey
        FOREIGN KEY (endpoint_id) REFERENCES webhooks.endpoints(id) ON DELETE CASCADE
    `);
  }
}
