import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  ListSmsSuppressionsRequest,
  SmsSuppressionEndReason,
  SmsSuppressionOrigin,
} from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

export interface SmsSuppressionRow {
  id: string;
  workspace_id: string;
  destination: string;
  originator: string;
  reason: string;
  origin: string;
  applies_to: string;
  source_sms_id: string | null;
  effective_at: Date | string;
  ended_at: Date | string | null;
  ended_reason: string | null;
  ended_effective_at: Date | string | null;
  source_end_sms_id: string | null;
  created_at: Date | string;
  last_asserted_at: Date | string;
}

const COLUMNS =
  'id, workspace_id, destination, originator, reason, origin, applies_to, source_sms_id, effective_at, ended_at, ended_reason, ended_effective_at, source_end_sms_id, created_at, last_asserted_at';
const TABLE = 'sms_whatsapp.sms_suppressions';
/** The partial unique index's target: one episode in force per reason and pair. */
const IN_FORCE = '(workspace_id, originator, destination, reason) WHERE ended_at IS NULL';

/** A STOP from a person to one of the workspace's numbers. */
export interface KeywordStop {
  id: string;
  workspaceId: string;
  originator: string;
  destination: string;
  sourceSmsId: string;
  at: Date;
}

/** Named queries over sms_whatsapp.sms_suppressions; every one is scoped by workspace. */
@Injectable()
export class SmsSuppressionsRepository {
  private readonly reads: SqlRunner;
  /** Autocommit statements on the pool, for writes that stand alone. */
  readonly writer: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
    this.writer = this.reads;
  }

  /** The episodes in force, most recent opt-out first (`effective_at`, then id). */
  list(
    workspaceId: string,
    request: ListSmsSuppressionsRequest,
    cursors: CursorCodec,
  ): Promise<Page<SmsSuppressionRow>> {
    const params: unknown[] = [workspaceId];
    let where = 'workspace_id = $1 AND ended_at IS NULL';
    for (const field of ['destination', 'originator', 'reason'] as const) {
      const value = request[field];
      if (value === undefined) continue;
      params.push(value);
      where += ` AND ${field} = $${params.length}`;
    }
    return paginate<SmsSuppressionRow>(
      this.reads,
      {
        from: TABLE,
        select: COLUMNS,
        where: { sql: where, params },
        filters: {
          workspaceId,
          destination: request.destination ?? null,
          originator: request.originator ?? null,
          reason: request.reason ?? null,
        },
        sorts: { effective_at: { column: 'effective_at', type: 'timestamptz' } },
        defaultSort: 'effective_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      {
        limit: request.limit,
        starting_after: request.starting_after,
        ending_before: request.ending_before,
      },
      cursors,
    );
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
    lock = false,
  ): Promise<SmsSuppressionRow | undefined> {
    const rows = rowsOf<SmsSuppressionRow>(
      await runner.query(
        `SELECT ${COLUMNS} FROM ${TABLE} WHERE workspace_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /**
   * Opens a manual episode for the pair unless one is in force, and returns it either way
   * (`created` false: the one in force). A concurrent add waits on the unique index, then finds it.
   */
  async addManual(
    runner: SqlRunner,
    row: {
      id: string;
      workspaceId: string;
      destination: string;
      originator: string;
      origin: SmsSuppressionOrigin;
    },
  ): Promise<{ created: boolean; row: SmsSuppressionRow }> {
    // The manual episode found by the conflict can be ended before it is read back (a remove
    // racing this add): then the pair has none in force and the insert is tried again.
    for (let attempt = 0; ; attempt++) {
      const inserted = rowsOf<SmsSuppressionRow>(
        await runner.query(
          `INSERT INTO ${TABLE} (id, workspace_id, destination, originator, reason, origin, effective_at, last_asserted_at)
           VALUES ($1, $2, $3, $4, 'manual', $5, clock_timestamp(), clock_timestamp())
           ON CONFLICT ${IN_FORCE} DO NOTHING
           RETURNING ${COLUMNS}`,
          [row.id, row.workspaceId, row.destination, row.originator, row.origin],
        ),
      );
      if (inserted[0]) return { created: true, row: inserted[0] };
      const existing = rowsOf<SmsSuppressionRow>(
        await runner.query(
          `SELECT ${COLUMNS} FROM ${TABLE}
           WHERE workspace_id = $1 AND originator = $2 AND destination = $3 AND reason = 'manual' AND ended_at IS NULL`,
          [row.workspaceId, row.originator, row.destination],
        ),
      );
      if (existing[0]) return { created: false, row: existing[0] };
      if (attempt >= 3)
        throw new Error('manual suppression kept vanishing between its insert and its read');
    }
  }

  /** Ends an episode in force (the caller has checked its reason under the row lock). */
  async end(
    runner: SqlRunner,
    workspaceId: string,
    id: string,
    reason: SmsSuppressionEndReason,
  ): Promise<void> {
    await runner.query(
      `UPDATE ${TABLE} SET ended_at = clock_timestamp(), ended_effective_at = clock_timestamp(), ended_reason = $3
       WHERE workspace_id = $1 AND id = $2 AND ended_at IS NULL`,
      [workspaceId, id, reason],
    );
  }

  /**
   * A STOP: opens a `keyword_stop` episode for the pair, or, when one is in force, records the
   * repeat on it (`last_asserted_at`) without a new record. One statement either way.
   */
  /**
   * Opens the pair's `keyword_stop` episode, or re-asserts the one in force. A STOP received
   * before a START that has already ended an episode of the pair (a carrier redelivering an old
   * STOP late) opens nothing: answers undefined.
   */
  async openKeywordStop(
    runner: SqlRunner,
    stop: KeywordStop,
  ): Promise<{ created: boolean; row: SmsSuppressionRow } | undefined> {
    const rows = rowsOf<SmsSuppressionRow & { created: boolean }>(
      await runner.query(
        `INSERT INTO ${TABLE}
           (id, workspace_id, destination, originator, reason, origin, source_sms_id, effective_at, last_asserted_at)
         SELECT $1, $2, $3, $4, 'keyword_stop', 'keyword', $5, $6, $6
         WHERE NOT EXISTS (
           SELECT 1 FROM ${TABLE}
           WHERE workspace_id = $2 AND destination = $3 AND originator = $4
             AND reason = 'keyword_stop' AND ended_reason = 'keyword_start'
             AND ended_effective_at >= $6)
         ON CONFLICT ${IN_FORCE}
         DO UPDATE SET last_asserted_at = GREATEST(${TABLE}.last_asserted_at, EXCLUDED.last_asserted_at)
         RETURNING ${COLUMNS}, (xmax = 0) AS created`,
        [stop.id, stop.workspaceId, stop.destination, stop.originator, stop.sourceSmsId, stop.at],
      ),
    );
    if (!rows[0]) return undefined;
    const { created, ...row } = rows[0];
    return { created, row };
  }

  /** A START: ends the pair's `keyword_stop` episodes in force; returns how many it ended. */
  async endKeywordStops(
    runner: SqlRunner,
    end: {
      workspaceId: string;
      originator: string;
      destination: string;
      sourceSmsId: string;
      at: Date;
    },
  ): Promise<number> {
    const rows = rowsOf(
      await runner.query(
        `UPDATE ${TABLE}
         SET ended_at = clock_timestamp(), ended_reason = 'keyword_start', ended_effective_at = $4, source_end_sms_id = $5
         WHERE workspace_id = $1 AND originator = $2 AND destination = $3
           AND reason = 'keyword_stop' AND ended_at IS NULL
         RETURNING id`,
        [end.workspaceId, end.originator, end.destination, end.at, end.sourceSmsId],
      ),
    );
    return rows.length;
  }

  /**
   * Ends the keyword STOP episodes a ledger grant for the same pair (originator, destination)
   * reversed: the grant carried consent later than the STOP's last assertion (the ledger applied
   * it), so the pair may be sent to again. Ended as an API call's (`api_key`); a STOP texted after
   * the grant keeps its episode. Answers how many ended.
   */
  async endKeywordStopsGranted(
    runner: SqlRunner,
    grants: Array<{ workspaceId: string; originator: string; destination: string; at: Date }>,
  ): Promise<number> {
    if (grants.length === 0) return 0;
    const rows = rowsOf(
      await runner.query(
        `UPDATE ${TABLE} s
         SET ended_at = clock_timestamp(), ended_reason = 'api_key', ended_effective_at = g.at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
           AS g(workspace_id, originator, destination, at)
         WHERE s.workspace_id = g.workspace_id AND s.originator = g.originator
           AND s.destination = g.destination AND s.reason = 'keyword_stop'
           AND s.ended_at IS NULL AND s.last_asserted_at < g.at
         RETURNING s.id`,
        [
          grants.map((grant) => grant.workspaceId),
          grants.map((grant) => grant.originator),
          grants.map((grant) => grant.destination),
          grants.map((grant) => grant.at),
        ],
      ),
    );
    return rows.length;
  }

  /** Whether the workspace holds `sender`: a number allocated to it, or a registered sender ID. */
  async holdsSender(runner: SqlRunner, workspaceId: string, sender: string): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(
        `SELECT 1 FROM sms_whatsapp.number_allocations
         WHERE workspace_id = $1 AND number = $2 AND released_at IS NULL
         UNION ALL
         SELECT 1 FROM sms_whatsapp.sms_senders WHERE workspace_id = $1 AND sender = $2
         LIMIT 1`,
        [workspaceId, sender],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Makes the caller's transaction the only one changing the pair's keyword episodes until it
   * ends: a STOP and a START of one pair arriving together (each deliver_sm in a transaction of
   * its own) take turns, the second seeing what the first did.
   */
  async lockPair(
    runner: SqlRunner,
    pair: { workspaceId: string; originator: string; destination: string },
  ): Promise<void> {
    await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `sms_pair ${pair.workspaceId} ${pair.originator} ${pair.destination}`,
    ]);
  }
}
