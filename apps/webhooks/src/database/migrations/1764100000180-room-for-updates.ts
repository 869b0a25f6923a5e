import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room on each page for the one update a row gets. A delivery is inserted, then updated once
 * by its recording (status, attempts, finished_at: no indexed column); on full pages that update
 * wrote a new version elsewhere and an entry in each of the table's four indexes. With half of
 * each page free it stays on its page (a HOT update: no index entry). Jobs the same for their
 * claim and lease renewals. Measured in a burst of 10,000 webhooks: 7% of delivery updates
 * were HOT before (ADR 20).
 */
export class RoomForUpdates1764100000180 implements MigrationInterface {
  name = 'RoomForUpdates1764100000180';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE webhooks.deliveries SET (fillfactor = 50);
      ALTER TABLE webhooks.jobs SET (fillfactor = 70);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE webhooks.deliveries RESET (fillfactor);
      ALTER TABLE webhooks.jobs RESET (fillfactor);
    `);
  }
}
