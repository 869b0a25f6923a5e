import { offsetMinutesAt } from '@switchboard/contracts';
import type { StatsWindow } from '@switchboard/contracts';
import type { SqlRunner } from '../pagination';
import { rowsOf } from '../pg-errors';

/**
 * A channel's rollup tables (ADR 18), all in `schema` beside its sketch functions and its
 * `stats_freshness`: what the reads sum, and the freshness stream they follow.
 */
export interface RollupTables<C extends string> {
  schema: string;
  /** Hourly rows, and the same per UTC day. */
  outbound: string;
  daily: string;
  inbound: string;
  counts: readonly C[];
  stream: string;
}

/** Latency sketches as the reads answer them (`stats_sketch_json`: read with `sketchFromStored`). */
export interface Sketches {
  processing_ms: unknown;
  delivery_ms: unknown;
  total_ms: unknown;
}

/** One scope of a query: the whole workspace (`''`), or values of one dimension. */
export interface StatsScope {
  dimension: string;
  values: string[];
}

export const WHOLE_WORKSPACE: StatsScope = { dimension: '', values: [''] };

/** The merged latency sketches of a group, in the stored form's JSON. */
const sketchesOf = (schema: string) =>
  ['processing_ms', 'delivery_ms', 'total_ms']
    .map((name) => `${schema}.stats_sketch_json(${schema}.stats_sketch_sum(${name})) AS ${name}`)
    .join(', ');

/**
 * The bucket label of a rollup quarter hour in a window's grain: its local day in the window's zone, or
 * the UTC instant of the local hour it falls in.
 */
export function labelSql(window: StatsWindow, zoneParam: string): string {
  return window.grain === 'day'
    ? `to_char(bucket AT TIME ZONE ${zoneParam}, 'YYYY-MM-DD')`
    : `to_char((date_trunc('hour', bucket AT TIME ZONE ${zoneParam}) AT TIME ZONE ${zoneParam}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
}

const DAY = 86_400_000;

/**
 * Whether every day of a day window is a UTC day (its zone keeps offset 0 throughout, checked
 * at both ends and half a year on, which a zone with daylight saving fails): its series is read
 * from the daily rows.
 */
function utcDays(window: StatsWindow): boolean {
  const start = window.start.getTime();
  return [start, window.end.getTime(), start + 182 * DAY].every(
    (instant) => offsetMinutesAt(window.timezone, instant) === 0,
  );
}

/**
 * Where a window's rows are read: its whole UTC days `[dayStart, dayEnd)` from the daily rows,
 * the quarter hours before and after from the finer rows (a window inside one day: all fine).
 */
export function splitOf(window: { start: Date; end: Date }) {
  const dayStart = Math.ceil(window.start.getTime() / DAY) * DAY;
  const dayEnd = Math.floor(window.end.getTime() / DAY) * DAY;
  return dayStart < dayEnd
    ? { dayStart: new Date(dayStart), dayEnd: new Date(dayEnd) }
    : { dayStart: window.end, dayEnd: window.end };
}

/**
 * Named reads of a channel's rollups (never its message tables; email, SMS and WhatsApp alike), every one scoped by workspace
 * and by the window's UTC span `[start, end)`.
 */
export class RollupReads<C extends string> {
  private readonly sums: string;
  private readonly sketches: string;

  constructor(
    private readonly reads: SqlRunner,
    private readonly tables: RollupTables<C>,
  ) {
    this.sums = tables.counts.map((name) => `coalesce(sum(${name}), 0)::int AS ${name}`).join(', ');
    this.sketches = sketchesOf(tables.schema);
  }

  /**
   * The rows of a window (parameters $4 to $7: start, day start, day end, end), daily where whole
   * UTC days allow and quarter-hourly at the edges, restricted by `where` (on $1 to $3).
   */
  private spanned(where: string): string {
    const columns = `value, ${this.tables.counts.join(', ')}, processing_ms, delivery_ms, total_ms`;
    return `(SELECT ${columns} FROM ${this.tables.daily}
        WHERE ${where} AND bucket >= $5 AND bucket < $6
      UNION ALL
      SELECT ${columns} FROM ${this.tables.outbound}
        WHERE ${where} AND ((bucket >= $4 AND bucket < $5) OR (bucket >= $6 AND bucket < $7))) AS r`;
  }

  private spanParams(window: StatsWindow): Date[] {
    const { dayStart, dayEnd } = splitOf(window);
    return [window.start, dayStart, dayEnd, window.end];
  }

  async totals(workspaceId: string, scope: StatsScope, window: StatsWindow) {
    const rows = rowsOf<Record<C, number> & Sketches>(
      await this.reads.query(
        `SELECT ${this.sums}, ${this.sketches}
         FROM ${this.spanned('workspace_id = $1 AND dimension = $2 AND value = ANY ($3::text[])')}`,
        [workspaceId, scope.dimension, scope.values, ...this.spanParams(window)],
      ),
    );
    return rows[0];
  }

  /** Counts (and sketches when asked) per bucket label of the window, labels with activity only. */
  async series(workspaceId: string, scope: StatsScope, window: StatsWindow, sketches = false) {
    const daily = window.grain === 'day' && utcDays(window);
    return rowsOf<Record<C, number> & Partial<Sketches> & { label: string }>(
      await this.reads.query(
        `SELECT ${labelSql(window, '$6')} AS label, ${this.sums}${sketches ? `, ${this.sketches}` : ''}
         FROM ${daily ? this.tables.daily : this.tables.outbound}
         WHERE workspace_id = $1 AND dimension = $2 AND value = ANY ($3::text[])
           AND bucket >= $4 AND bucket < $5
         GROUP BY 1`,
        [workspaceId, scope.dimension, scope.values, window.start, window.end, window.timezone],
      ),
    );
  }

  /** Counts per value of a dimension: every value with activity, for ranking. */
  async breakdownCounts(workspaceId: string, dimension: string, window: StatsWindow) {
    return rowsOf<Record<C, number> & { value: string }>(
      await this.reads.query(
        `SELECT value, ${this.sums}
         FROM ${this.spanned('workspace_id = $1 AND dimension = $2 AND $3::text IS NULL')}
         GROUP BY value`,
        [workspaceId, dimension, null, ...this.spanParams(window)],
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
    if (values.length === 0) return [];
    return rowsOf<Sketches & { value: string }>(
      await this.reads.query(
        `SELECT value, ${this.sketches}
         FROM ${this.spanned('workspace_id = $1 AND dimension = $2 AND value = ANY ($3::text[])')}
         GROUP BY value`,
        [workspaceId, dimension, values, ...this.spanParams(window)],
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
    if (values.length === 0) return [];
    return rowsOf<Record<C, number> & { value: string; label: string }>(
      await this.reads.query(
        `SELECT value, ${labelSql(trend, '$6')} AS label, ${this.sums} FROM ${this.tables.outbound}
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
        `SELECT coalesce(sum(received), 0)::int AS received FROM ${this.tables.inbound}
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
         FROM ${this.tables.inbound}
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
         FROM ${this.tables.inbound}
         WHERE workspace_id = $1 AND dimension = $2 AND bucket >= $3 AND bucket < $4
         GROUP BY value ORDER BY received DESC, value LIMIT $5`,
        [workspaceId, dimension, window.start, window.end, limit],
      ),
    );
  }

  /**
   * The newest event time the rollups reflect (null before the first), and their version, which
   * every fold and rebuild moves ('0' before the first).
   */
  async freshness(): Promise<{ dataAsOf: string | null; version: string }> {
    const rows = rowsOf<{ data_as_of: Date; version: string }>(
      await this.reads.query(
        `SELECT data_as_of, version::text AS version FROM ${this.tables.schema}.stats_freshness
         WHERE stream = $1`,
        [this.tables.stream],
      ),
    );
    return rows[0]
      ? { dataAsOf: new Date(rows[0].data_as_of).toISOString(), version: rows[0].version }
      : { dataAsOf: null, version: '0' };
  }

  /** The newest event time the rollups reflect, or null before the first. */
  async dataAsOf(): Promise<string | null> {
    const rows = rowsOf<{ data_as_of: Date }>(
      await this.reads.query(
        `SELECT data_as_of FROM ${this.tables.schema}.stats_freshness WHERE stream = $1`,
        [this.tables.stream],
      ),
    );
    return rows[0] ? new Date(rows[0].data_as_of).toISOString() : null;
  }
}
