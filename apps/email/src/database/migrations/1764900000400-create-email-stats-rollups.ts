import { latencySketchFunctionsSql } from '@switchboard/contracts';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { EMAIL_STATS_COUNTS } from '../../stats/email-stats-counts';

/**
 * Email stats rollups (ADR 18): counts per workspace, quarter hour (and UTC day) of the
 * message's send time and dimension value, kept by the stats consumer from the service's own
 * `email.*` events; latency sketches are int arrays merged by addition. `dimension` '' is the
 * whole workspace. A stats query reads these tables only, never the message tables.
 */
export class CreateEmailStatsRollups1764900000400 implements MigrationInterface {
  name = 'CreateEmailStatsRollups1764900000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of latencySketchFunctionsSql('email')) await queryRunner.query(statement);
    await queryRunner.query(`
      CREATE TABLE email.email_stats_rollups (
        workspace_id text NOT NULL,
        dimension text NOT NULL,
        value text COLLATE "C" NOT NULL,
        bucket timestamptz NOT NULL,
        ${EMAIL_STATS_COUNTS.map((name) => `${name} int NOT NULL DEFAULT 0,`).join('\n        ')}
        processing_ms int[],
        delivery_ms int[],
        total_ms int[],
        PRIMARY KEY (workspace_id, dimension, value, bucket)
      );
      CREATE INDEX email_stats_rollups_breakdown_idx
        ON email.email_stats_rollups (workspace_id, dimension, bucket);

      -- The same per UTC day: a window's whole UTC days are read here, its edges quarter-hourly.
      CREATE TABLE email.email_stats_daily_rollups (LIKE email.email_stats_rollups INCLUDING ALL);

      -- What the rollups hold already, by claim key: a recipient's lifecycle stage
      -- ('<recipient>:email.delivered'), an engagement event ('ev:<id>'), a recipient's first
      -- open or click, a message's acceptance. A redelivered event counts once, and the SDK's
      -- distinct-recipient counts stay distinct.
      CREATE TABLE email.stats_folded_events (
        key text PRIMARY KEY
      );

      -- The newest event time the rollups reflect, and their version, moved by every fold and
      -- rebuild (the key of the answers the service keeps).
      CREATE TABLE email.stats_freshness (
        stream text PRIMARY KEY,
        data_as_of timestamptz NOT NULL,
        version bigint NOT NULL DEFAULT 1
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE email.stats_freshness;
      DROP TABLE email.stats_folded_events;
      DROP TABLE email.email_stats_daily_rollups;
      DROP TABLE email.email_stats_rollups;
      DROP FUNCTION email.stats_sketch_json(int[]);
      DROP FUNCTION email.stats_sketch_of(int[]);
      DROP AGGREGATE email.stats_sketch_sum(int[]);
      DROP FUNCTION email.stats_sketch_add(int[], int[]);
      DROP FUNCTION email.stats_sketch_slot(double precision);
    `);
  }
}
