import { preferenceStatesTable } from '@switchboard/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The email service's projection of the preference ledger (ADR 14): each email handle's current
 * statement, fed by `preference.*` events and read beside the suppressions at processing.
 */
export class CreateEmailPreferenceStates1764800000100 implements MigrationInterface {
  name = 'CreateEmailPreferenceStates1764800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(preferenceStatesTable('email'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE email.preference_states');
  }
}
