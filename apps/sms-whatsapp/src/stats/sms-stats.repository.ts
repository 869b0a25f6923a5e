import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { StatsWindow } from '@switchboard/contracts';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

export const SMS_COUNTS = [
  'accepted',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'rejected',
  'expired',
] as const;
export type SmsCounts = Record<(typeof SMS_COUNTS)[number], number>;
export interface SmsSketches {
  processing_ms: number[] | null;
  delivery_ms: number[] | null;
  total_ms: number[] | null;
}
/** One scope of a query: the whole workspace (`''`) or one value of a dimension. */
export interface StatsScope {
  dimension: string;
  value: string;
}

const SUMS = SMS_COUNTS.map((name) => `coalesce(sum(${name}), 0)::int AS ${name}`).join(', ');
const SKETCHES = ['processing_ms', 'delivery_ms', 'total_ms']
  .map((name) => `sms_whatsapp.stats_sketch_sum(${name}) AS ${name}`)
  .join(', ');

/**
 * The bucket label of a rollup hour in a window's grain: its local day in the window's zone, or
 * the UTC instant of the local hour it falls in (so a zone with a sub-hour offset labels its own
 * hours).
 */
export function labelSql(window: StatsWindow, zoneParam: string): string {
  return window.grain === 'day'
    ? `to_char(bucket AT TIME ZONE ${zoneParam}, 'YYYY-MM-DD')`
    : `to_char((date_trunc('hour', bucket AT TIME ZONE ${zoneParam}) AT TIME ZONE ${zoneParam}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
}

/** Named reads of the SMS rollups (never the message tables); every one scoped by workspace. */
@Injectable()
export class SmsStatsRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  async totals(workspaceId: string, scope: StatsScope, window: StatsWindow) {
    const rows = rowsOf<SmsCounts & SmsSketches>(
      await this.reads.query(
        `SELECT ${SUMS}, ${SKETCHES} FROM sms_whatsapp.sms_stats_rollups
         WHERE workspace_id = $1 AND dimension = $2 AND value = $3 AND bucket >= $4 AND bucket < $5`,
        [workspaceId, scope.dimension, scope.value, window.start, window.end],
      ),
    );
    return rows[0];
  }

  /** Counts per bucket label of the window (only labels with activity). */
  async series(workspaceId: string, scope: StatsScope, window: StatsWindow) {
    return rowsOf<SmsCounts & { label: string }>(
      await this.reads.query(
        `SELECT ${labelSql(window, '$6')} AS label, ${SUMS} FROM sms_whatsapp.sms_stats_rollups
         WHERE workspace_id = $1 AND dimension = $2 AND value = $3 AND bucket >= $4 AND bucket < $5
         GROUP BY 1`,
        [workspaceId, scope.dimension, scope.value, window.start, window.end, window.timezone],
      ),
    );
  }

  /** Counts per value of a dimension: every value with activity, for ranking. */
  async breakdownCounts(workspaceId: string, dimension: string, window: StatsWindow) {
    return rowsOf<SmsCounts & { value: string }>(
      await this.reads.query(
        `SELECT value, ${SUMS} FROM sms_whatsapp.sms_stats_rollups
         WHERE workspace_id = $1 AND dimension = $2 AND bucket >= $3 AND bucket < $4
         GROUP BY value`,
        [workspaceId, dimension, window.start, window.end],
      ),
    );
  }

  /** The latency sketches of the ranked `values` only. */
  async breakdownSketches(
    workspaceId: string,
    dimension: string,
    values: string[],
    window: StatsWindow,
  ) {
    return rowsOf<SmsSketches & { value: string }>(
      await this.reads.query(
        `SELECT value, ${SKETCHES} FROM sms_whatsapp.sms_stats_rollups
         WHERE workspace_id = $1 AND dimension = $2 AND value = ANY ($3::text[])
           AND bucket >= $4 AND bucket < $5
         GROUP BY value`,
        [workspaceId, dimension, values, window.start, window.end],
      ),
    );
  }

  /** Each of `values`' counts per bucket label of `trend` (a window of the trend's grain). */
  async breakdownTrends(
    workspaceId: string,
    dimension: string,
    values: string[],
    trend: StatsWindow,
  ) {
    return rowsOf<SmsCounts & { value: string; label: string }>(
      await this.reads.query(
        `SELECT value, ${labelSql(trend, '$6')} AS label, ${SUMS} FROM sms_whatsapp.sms_stats_rollups
         WHERE workspace_id = $1 AND dimension = $2 AND value = ANY ($3::text[])
           AND bucket >= $4 AND bucket < $5
         GROUP BY 1, 2 ORDER BY 2`,
        [workspaceId, dimension, values, trend.start, trend.end, trend.timezone],
      ),
    );
  }

  async inboundTotal(workspaceId: string, window: StatsWindow): Promise<number> {
    const rows = rowsOf<{ received: number }>(
      await this.reads.query(
        `SELECT coalesce(sum(received), 0)::int AS received FROM sms_whatsapp.sms_inbound_stats_rollups
         WHERE workspace_id = $1 AND dimension = '' AND bucket >= $2 AND bucket < $3`,
        [workspaceId, window.start, window.end],
      ),
    );
    return rows[0]?.received ?? 0;
  }

  async inboundSeries(workspaceId: string, window: StatsWindow) {
    return rowsOf<{ label: string; received: number }>(
      await this.reads.query(
        `SELECT ${labelSql(window, '$4')} AS label, sum(received)::int AS received
         FROM sms_whatsapp.sms_inbound_stats_rollups
         WHERE workspace_id = $1 AND dimension = '' AND bucket >= $2 AND bucket < $3 GROUP BY 1`,
        [workspaceId, window.start, window.end, window.timezone],
      ),
    );
  }

  /** Received per value of `dimension`, most first, `limit` rows and the count before it. */
  async inboundBreakdown(
    workspaceId: string,
    dimension: string,
    window: StatsWindow,
    limit: number,
  ) {
    return rowsOf<{ value: string; received: number; total: number }>(
      await this.reads.query(
        `SELECT value, sum(received)::int AS received, (count(*) OVER ())::int AS total
         FROM sms_whatsapp.sms_inbound_stats_rollups
         WHERE workspace_id = $1 AND dimension = $2 AND bucket >= $3 AND bucket < $4
         GROUP BY value ORDER BY received DESC, value LIMIT $5`,
        [workspaceId, dimension, window.start, window.end, limit],
      ),
    );
  }

  /** The newest event time the rollups reflect, or null before the first. */
  async dataAsOf(): Promise<string | null> {
    const rows = rowsOf<{ data_as_of: Date }>(
      await this.reads.query(
        `SELECT data_as_of FROM sms_whatsapp.stats_freshness WHERE stream = 'sms'`,
      ),
    );
    return rows[0] ? new Date(rows[0].data_as_of).toISOString() : null;
  }
}
