import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PageRequest, PreferenceCoverage, PreferenceStatus } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

export interface PreferenceRow {
  id: string;
  workspace_id: string;
  channel: string;
  handle: string;
  sender_scope: string | null;
  topic_id: string | null;
  status: PreferenceStatus;
  coverage: PreferenceCoverage;
  origin: string;
  source: string | null;
  consented_at: Date | null;
  effective_at: Date;
  contact_id: string | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A key: the workspace's channel, handle and sender scope (topics are reserved, null in v1). */
export interface PreferenceKey {
  workspaceId: string;
  channel: string;
  handle: string;
  senderScope: string | null;
}

/** The statement a row holds after a write. */
export interface PreferenceState {
  status: PreferenceStatus;
  coverage: PreferenceCoverage;
  origin: string;
  source: string | null;
  consentedAt: Date | null;
  effectiveAt: Date;
  contactId: string | null;
}

export interface TransitionRecord {
  id: string;
  workspaceId: string;
  preferenceId: string;
  kind: PreferenceStatus | 'deleted';
  applied: boolean;
  coverage: PreferenceCoverage;
  origin: string;
  source: string | null;
  consentedAt: Date | null;
  effectiveAt: Date;
  /** The bus event of a person's own statement that this transition records, once. */
  sourceEventId: string | null;
}

const COLUMNS =
  'id, workspace_id, channel, handle, sender_scope, topic_id, status, coverage, origin, source, consented_at, effective_at, contact_id, deleted_at, created_at, updated_at';
const TABLE = 'verify_lookup_preferences.preferences';

/** Named queries over the preference ledger; every one is scoped by workspace. */
@Injectable()
export class PreferencesRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('verify_lookup_preferences') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** A page of the workspace's current preferences matching `where`, newest first. */
  page(
    workspaceId: string,
    match: { sql: string; params: unknown[]; filters: Record<string, unknown> },
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<PreferenceRow>> {
    return paginate<PreferenceRow>(
      this.reads,
      {
        from: TABLE,
        select: COLUMNS,
        where: {
          sql: `workspace_id = $1 AND deleted_at IS NULL${match.sql}`,
          params: [workspaceId, ...match.params],
        },
        filters: { workspaceId, ...match.filters },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  async find(workspaceId: string, id: string, runner: SqlRunner = this.reads) {
    const rows = rowsOf<PreferenceRow>(
      await runner.query(
        `SELECT ${COLUMNS} FROM ${TABLE} WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /**
   * Serialises the key's writes (a transaction-scoped advisory lock: the key may have no row to
   * lock yet) and reads its live row, else its latest deleted one.
   */
  async lockKey(runner: SqlRunner, key: PreferenceKey): Promise<PreferenceRow | undefined> {
    const params = [key.workspaceId, key.channel, key.handle, key.senderScope ?? ''];
    await runner.query(
      `SELECT pg_advisory_xact_lock(hashtextextended(jsonb_build_array($1::text, $2::text, $3::text, $4::text)::text, 7))`,
      params,
    );
    const rows = rowsOf<PreferenceRow>(
      await runner.query(
        `SELECT ${COLUMNS} FROM ${TABLE}
         WHERE workspace_id = $1 AND channel = $2 AND handle = $3
           AND COALESCE(sender_scope, '') = $4 AND COALESCE(topic_id, '') = ''
         ORDER BY deleted_at DESC NULLS FIRST LIMIT 1`,
        params,
      ),
    );
    return rows[0];
  }

  /** Locks a current row by id (a delete), with the same key lock the writes take. */
  async lockById(runner: SqlRunner, workspaceId: string, id: string) {
    const row = await this.find(workspaceId, id, runner);
    if (!row) return undefined;
    const locked = await this.lockKey(runner, {
      workspaceId,
      channel: row.channel,
      handle: row.handle,
      senderScope: row.sender_scope,
    });
    // Deleted and stated again meanwhile, the key's live row is another preference.
    return locked && !locked.deleted_at && locked.id === id ? locked : undefined;
  }

  async insert(runner: SqlRunner, id: string, key: PreferenceKey, state: PreferenceState) {
    const rows = rowsOf<PreferenceRow>(
      await runner.query(
        `INSERT INTO ${TABLE} (id, workspace_id, channel, handle, sender_scope, status, coverage,
           origin, source, consented_at, effective_at, contact_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         RETURNING ${COLUMNS}`,
        [id, key.workspaceId, key.channel, key.handle, key.senderScope, ...stateParams(state)],
      ),
    );
    return rows[0];
  }

  /** Replaces a live row's statement (a deleted key's next statement is a new row). */
  async replace(runner: SqlRunner, id: string, state: PreferenceState) {
    const rows = rowsOf<PreferenceRow>(
      await runner.query(
        `UPDATE ${TABLE} SET status = $2, coverage = $3, origin = $4, source = $5,
           consented_at = $6, effective_at = $7, contact_id = $8, updated_at = clock_timestamp()
         WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
        [id, ...stateParams(state)],
      ),
    );
    return rows[0];
  }

  async markDeleted(runner: SqlRunner, id: string, effectiveAt: Date): Promise<void> {
    await runner.query(
      `UPDATE ${TABLE} SET deleted_at = clock_timestamp(), effective_at = $2,
         updated_at = clock_timestamp() WHERE id = $1`,
      [id, effectiveAt],
    );
  }

  /**
   * The greatest id (byte order, as the projections compare) among the key's transitions, over
   * every life of the key (each delete ends one): the projections order the key by them.
   */
  async latestTransitionId(runner: SqlRunner, preferenceId: string): Promise<string | undefined> {
    const rows = rowsOf<{ id: string | null }>(
      await runner.query(
        `SELECT max(t.id COLLATE "C") AS id
         FROM ${TABLE} p
         JOIN ${TABLE} life ON life.workspace_id = p.workspace_id AND life.channel = p.channel
           AND life.handle = p.handle
           AND COALESCE(life.sender_scope, '') = COALESCE(p.sender_scope, '')
           AND COALESCE(life.topic_id, '') = COALESCE(p.topic_id, '')
         JOIN verify_lookup_preferences.preference_transitions t ON t.preference_id = life.id
         WHERE p.id = $1`,
        [preferenceId],
      ),
    );
    return rows[0]?.id ?? undefined;
  }

  async recordTransition(runner: SqlRunner, t: TransitionRecord): Promise<void> {
    await runner.query(
      `INSERT INTO verify_lookup_preferences.preference_transitions
         (id, workspace_id, preference_id, kind, applied, coverage, origin, source, consented_at,
          effective_at, source_event_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        t.id,
        t.workspaceId,
        t.preferenceId,
        t.kind,
        t.applied,
        t.coverage,
        t.origin,
        t.source,
        t.consentedAt,
        t.effectiveAt,
        t.sourceEventId,
      ],
    );
  }

  /** Whether a transition already records this bus event (a statement delivered again). */
  async hasTransitionFor(runner: SqlRunner, workspaceId: string, eventId: string) {
    const rows = await runner.query(
      `SELECT 1 FROM verify_lookup_preferences.preference_transitions
       WHERE workspace_id = $1 AND source_event_id = $2`,
      [workspaceId, eventId],
    );
    return rowsOf(rows).length > 0;
  }
}

function stateParams(state: PreferenceState): unknown[] {
  return [
    state.status,
    state.coverage,
    state.origin,
    state.source,
    state.consentedAt,
    state.effectiveAt,
    state.contactId,
  ];
}
