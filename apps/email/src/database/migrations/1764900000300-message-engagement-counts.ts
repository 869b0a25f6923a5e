import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message's opens and clicks across its recipients (the SDK's `EmailMessage.open_count` and
 * `click_count`: every open and click event counts, a recipient opening twice counts twice),
 * kept beside its other counts and moved by the same statement that records the hits.
 */
export class MessageEngagementCounts1764900000300 implements MigrationInterface {
  name = 'MessageEngagementCounts1764900000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE email.messages
        ADD COLUMN open_count int NOT NULL DEFAULT 0,
        ADD COLUMN click_count int NOT NULL DEFAULT 0
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE email.messages DROP COLUMN open_count, DROP COLUMN click_count',
    );
  }
}
