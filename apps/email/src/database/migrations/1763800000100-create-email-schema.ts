import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The email service's own schema; its product tables arrive with the email messages, batches, broadcasts, contacts, domains, inbound issue. */
export class CreateEmailSchema1763800000100 implements MigrationInterface {
  name = 'CreateEmailSchema1763800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "email"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS "email" CASCADE');
  }
}
