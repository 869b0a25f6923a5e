import { latencySketchFunctionsSql } from '@switchboard/contracts';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SMS stats rollups (ADR 18): counts per workspace, quarter hour (and UTC day) of the message's
 * send time and dimension value, kept by the stats consumer from the service's own events; the latency
 * sketches are int arrays merged by addition. `dimension` '' is the whole workspace. A stats
 * query reads these tables only, never the message tables.
 */
export class CreateStatsRollups1764900000400 implements MigrationInterface {
  name = 'CreateStatsRollups1764900000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of latencySketchFunctionsSql('sms_whatsapp'))
      await queryRunner.query(statement);
    await queryRunner.query(`
      CREATE TABLE sms_whatsapp.sms_stats_rollups (
        workspace_id text NOT NULL,
        dimension text NOT NULL,
        value text COLLATE "C" NOT NULL,
        bucket timestamptz NOT NULL,
        accepted int NOT NULL DEFAULT 0,
        sent int NOT NULL DEFAULT 0,
        delivered int NOT NULL DEFAULT 0,
        undelivered int NOT NULL DEFAULT 0,
        failed int NOT NULL DEFAULT 0,
        rejected int NOT NULL DEFAULT 0,
        expired int NOT NULL DEFAULT 0,
        processing_ms int[],
        delivery_ms int[],
        total_ms int[],
        PRIMARY KEY (workspace_id, dimension, value, bucket)
      );
      CREATE INDEX sms_stats_rollups_breakdown_idx
        ON sms_whatsapp.sms_stats_rollups (workspace_id, dimension, bucket);

      -- The same per UTC day: a window's whole UTC days are read here, its edges hourly.
      CREATE TABLE sms_whatsapp.sms_stats_daily_rollups (LIKE sms_whatsapp.sms_stats_rollups INCLUDING ALL);

      CREATE TABLE sms_whatsapp.sms_inbound_stats_rollups (
        workspace_id text NOT NULL,
        dimension text NOT NULL,
        value text COLLATE "C" NOT NULL,
        bucket timestamptz NOT NULL,
        received int NOT NULL DEFAULT 0,
        PRIMARY KEY (workspace_id, dimension, value, bucket)
      );
      CREATE INDEX sms_inbound_stats_rollups_breakdown_idx
        ON sms_whatsapp.sms_inbound_stats_rollups (workspace_id, dimension, bucket);

      -- Which (message, event type) the rollups hold already: a redelivered event, or a second
      -- receipt of the same outcome, counts once (the SDK's counts are distinct messages).
      CREATE TABLE sms_whatsapp.stats_folded_events (
        message_id text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        PRIMARY KEY (message_id, type)
      );

      -- Per stream ('sms', 'whatsapp'): the newest event time the rollups reflect, and their
      -- version, moved by every fold and rebuild (the key of the answers the service keeps).
      CREATE TABLE sms_whatsapp.stats_freshness (
        stream text PRIMARY KEY,
        data_as_of timestamptz NOT NULL,
        version bigint NOT NULL DEFAULT 1
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE sms_whatsapp.stats_freshness;
      DROP TABLE sms_whatsapp.stats_folded_events;
      DROP TABLE sms_whatsapp.sms_inbound_stats_rollups;
      DROP TABLE sms_whatsapp.sms_stats_daily_rollups;
      DROP TABLE sms_whatsapp.sms_stats_rollups;
      DROP FUNCTION sms_whatsapp.stats_sketch_json(int[]);
      DROP FUNCTION sms_whatsapp.stats_sketch_of(int[]);
      DROP AGGREGATE sms_whatsapp.stats_sketch_sum(int[]);
      DROP FUNCTION sms_whatsapp.stats_sketch_add(int[], int[]);
      DROP FUNCTION sms_whatsapp.stats_sketch_slot(double precision);
    `);
  }
}
