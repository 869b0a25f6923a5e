import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * WhatsApp stats rollups (ADR 18), beside the SMS ones and kept the same way: counts per
 * workspace, quarter hour (and UTC day) of the send time and dimension value, latency sketches merged by addition.
 * The dimensions: '' (whole workspace), template, category, phone_number, tag, tag_name, country,
 * error_code; inbound: '' and phone_number.
 */
export class CreateWhatsappStatsRollups1764900000410 implements MigrationInterface {
  name = 'CreateWhatsappStatsRollups1764900000410';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sms_whatsapp.whatsapp_stats_rollups (
        workspace_id text NOT NULL,
        dimension text NOT NULL,
        value text COLLATE "C" NOT NULL,
        bucket timestamptz NOT NULL,
        accepted int NOT NULL DEFAULT 0,
        sent int NOT NULL DEFAULT 0,
        delivered int NOT NULL DEFAULT 0,
        failed int NOT NULL DEFAULT 0,
        rejected int NOT NULL DEFAULT 0,
        read int NOT NULL DEFAULT 0,
        processing_ms int[],
        delivery_ms int[],
        total_ms int[],
        PRIMARY KEY (workspace_id, dimension, value, bucket)
      );
      CREATE INDEX whatsapp_stats_rollups_breakdown_idx
        ON sms_whatsapp.whatsapp_stats_rollups (workspace_id, dimension, bucket);
      CREATE TABLE sms_whatsapp.whatsapp_stats_daily_rollups
        (LIKE sms_whatsapp.whatsapp_stats_rollups INCLUDING ALL);

      CREATE TABLE sms_whatsapp.whatsapp_inbound_stats_rollups (
        workspace_id text NOT NULL,
        dimension text NOT NULL,
        value text COLLATE "C" NOT NULL,
        bucket timestamptz NOT NULL,
        received int NOT NULL DEFAULT 0,
        PRIMARY KEY (workspace_id, dimension, value, bucket)
      );
      CREATE INDEX whatsapp_inbound_stats_rollups_breakdown_idx
        ON sms_whatsapp.whatsapp_inbound_stats_rollups (workspace_id, dimension, bucket);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE sms_whatsapp.whatsapp_inbound_stats_rollups;
      DROP TABLE sms_whatsapp.whatsapp_stats_daily_rollups;
      DROP TABLE sms_whatsapp.whatsapp_stats_rollups;
    `);
  }
}
