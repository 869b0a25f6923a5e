import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The realtime service's own schema; its product tables arrive with the realtime apps, keys, channels and client connections issue. */
export class CreateRealtimeSchema1763800000200 implements MigrationInterface {
  name = 'CreateRealtimeSchema1763800000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "realtime"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS "realtime" CASCADE');
  }
}
