import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The verify-lookup-preferences service's own schema; its product tables arrive with the one-time passcodes, lookup and consent preferences issue. */
export class CreateVerifyLookupPreferencesSchema1763800000400 implements MigrationInterface {
  name = 'CreateVerifyLookupPreferencesSchema1763800000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "verify_lookup_preferences"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS "verify_lookup_preferences" CASCADE');
  }
}
