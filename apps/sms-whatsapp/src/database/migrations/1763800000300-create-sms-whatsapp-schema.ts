import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The sms-whatsapp service's own schema; its product tables arrive with the SMS and WhatsApp messaging issue. */
export class CreateSmsWhatsappSchema1763800000300 implements MigrationInterface {
  name = 'CreateSmsWhatsappSchema1763800000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "sms_whatsapp"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS "sms_whatsapp" CASCADE');
  }
}
