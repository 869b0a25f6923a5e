import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The parts of long inbound messages, each stored as it comes (then answered to the carrier), the
 * message recorded once its last part is in: an SMSC that sends one deliver_sm at a time, or
 * spreads the parts over several binds and replicas, still gets every part answered.
 */
export class SmsInboundParts1765000000400 implements MigrationInterface {
  name = 'SmsInboundParts1765000000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sms_whatsapp.sms_inbound_parts (
        carrier text NOT NULL,
        from_address text COLLATE "C" NOT NULL,
        to_address text COLLATE "C" NOT NULL,
        reference int NOT NULL,
        total int NOT NULL,
        sequence int NOT NULL,
        -- UTF-16LE as decoded: a surrogate pair split across two parts is whole once joined.
        text_utf16 bytea NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (carrier, from_address, to_address, reference, total, sequence)
      );
      CREATE INDEX sms_inbound_parts_received_idx ON sms_whatsapp.sms_inbound_parts (received_at);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sms_whatsapp.sms_inbound_parts`);
  }
}
