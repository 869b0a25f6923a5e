import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The unique index on (endpoint, event) for the bus's deliveries goes: the intake only creates
 * deliveries for events it has just stored (their id is the events' key), so an endpoint can
 * never get a second one, and each delivery paid for a speculative insert into it. The plain
 * (endpoint, event) index stays for replays and the endpoint's cascade.
 */
export class DeliveriesWrittenLighter1764100000200 implements MigrationInterface {
  name = 'DeliveriesWrittenLighter1764100000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS webhooks.deliveries_endpoint_event_key');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE UNIQUE INDEX deliveries_endpoint_event_key
        ON webhooks.deliveries (endpoint_id, event_id) WHERE origin = 'event';
    `);
  }
}
