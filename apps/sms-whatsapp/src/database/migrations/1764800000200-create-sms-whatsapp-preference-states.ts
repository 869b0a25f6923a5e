import { preferenceStatesTable } from '@switchboard/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The service's projection of the preference ledger (ADR 14): each SMS and WhatsApp handle's
 * current statements (channel-wide and per sender), fed by `preference.*` events and read by
 * the sends at accept.
 */
export class CreateSmsWhatsappPreferenceStates1764800000200 implements MigrationInterface {
  name = 'CreateSmsWhatsappPreferenceStates1764800000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(preferenceStatesTable('sms_whatsapp'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sms_whatsapp.preference_states');
  }
}
