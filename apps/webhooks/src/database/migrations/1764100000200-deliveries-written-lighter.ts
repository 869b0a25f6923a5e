import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two of the writes every delivery paid for, which its intake already guarantees:
 * - the unique index on (endpoint, event) for the bus's deliveries: the intake only creates
 *   deliveries for events it has just stored (their id is the events' key), so an endpoint can
 *   never get a second one; the plain (endpoint, event) index stays for replays and cascades;
 * - the foreign key to the event, which share-locked each new event once more: the retention
 *   deletes an event's deliveries in the statement that deletes the event.
 */
export class DeliveriesWrittenLighter1764100000200 implements MigrationInterface {
  name = 'DeliveriesWrittenLighter1764100000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX IF EXISTS webhooks.deliveries_endpoint_event_key;
      ALTER TABLE webhooks.deliveries DROP CONSTRAINT IF EXISTS deliveries_event_id_fkey;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE webhooks.deliveries ADD CONSTRAINT deliveries_event_id_fkey
        FOREIGN KEY (event_id) REFERENCES webhooks.events(id) ON DELETE CASCADE;
      CREATE UNIQUE INDEX deliveries_endpoint_event_key
        ON webhooks.deliveries (endpoint_id, event_id) WHERE origin = 'event';
    `);
  }
}
