import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A short code is a number in one country only: the same digits can be allocated in several
 * (the SDK's `numbers.list` names the country beside a short code for that reason). The stock
 * is keyed by (number, country_code), and a holding names the country of the number it holds.
 * An E.164 number carries its country, so for those nothing changes.
 */
export class ShortCodesPerCountry1765000000600 implements MigrationInterface {
  name = 'ShortCodesPerCountry1765000000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sms_whatsapp.number_allocations ADD COLUMN country_code text;
      UPDATE sms_whatsapp.number_allocations a SET country_code = n.country_code
        FROM sms_whatsapp.numbers n WHERE n.number = a.number;
      ALTER TABLE sms_whatsapp.number_allocations ALTER COLUMN country_code SET NOT NULL;
      ALTER TABLE sms_whatsapp.number_allocations DROP CONSTRAINT number_allocations_number_fkey;
      ALTER TABLE sms_whatsapp.numbers DROP CONSTRAINT numbers_pkey;
      ALTER TABLE sms_whatsapp.numbers ADD PRIMARY KEY (number, country_code);
      ALTER TABLE sms_whatsapp.number_allocations ADD CONSTRAINT number_allocations_number_fkey
        FOREIGN KEY (number, country_code) REFERENCES sms_whatsapp.numbers (number, country_code);
      DROP INDEX sms_whatsapp.number_allocations_held_key;
      CREATE UNIQUE INDEX number_allocations_held_key
        ON sms_whatsapp.number_allocations (number, country_code) WHERE released_at IS NULL;
    `);
  }

  /** Only while no short code is stocked in two countries (the old key would not hold). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX sms_whatsapp.number_allocations_held_key;
      CREATE UNIQUE INDEX number_allocations_held_key
        ON sms_whatsapp.number_allocations (number) WHERE released_at IS NULL;
      ALTER TABLE sms_whatsapp.number_allocations DROP CONSTRAINT number_allocations_number_fkey;
      ALTER TABLE sms_whatsapp.numbers DROP CONSTRAINT numbers_pkey;
      ALTER TABLE sms_whatsapp.numbers ADD PRIMARY KEY (number);
      ALTER TABLE sms_whatsapp.number_allocations ADD CONSTRAINT number_allocations_number_fkey
        FOREIGN KEY (number) REFERENCES sms_whatsapp.numbers (number);
      ALTER TABLE sms_whatsapp.number_allocations DROP COLUMN country_code;
    `);
  }
}
