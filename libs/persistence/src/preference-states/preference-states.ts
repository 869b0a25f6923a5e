import { env } from '@switchboard/platform';
import { PREFERENCE_SNAPSHOT_EVENT } from '@switchboard/contracts';
import type { PreferenceEventData, PreferenceEventType } from '@switchboard/contracts';
import type { OutboxEvent } from '@switchboard/platform';
import { rowsOf } from '../pg-errors';
import type { SqlRunner } from '../pagination';

/** One key's current statement in a channel service's projection of the preference ledger. */
export interface PreferenceStateRow {
  workspace_id: string;
  channel: string;
  handle: string;
  /** '' when the statement is channel-wide. */
  sender_scope: string;
  status: 'granted' | 'revoked' | 'deleted';
  coverage: string;
  effective_at: Date;
  transition_id: string;
}

/**
 * The projection's table in a channel service's schema: one row per key, a deletion kept as a
 * row (`deleted`) so that an older statement arriving late cannot bring the key back.
 * `transition_id` sorts byte-wise (time-ordered ids), whatever the database's collation.
 */
export function preferenceStatesTable(schema: string): string {
  return `CREATE TABLE IF NOT EXISTS ${schema}.preference_states (
    workspace_id text NOT NULL,
    channel text NOT NULL,
    handle text NOT NULL,
    sender_scope text NOT NULL DEFAULT '',
    status text NOT NULL CHECK (status IN ('granted', 'revoked', 'deleted')),
    coverage text NOT NULL,
    effective_at timestamptz NOT NULL,
    transition_id text COLLATE "C" NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (workspace_id, channel, handle, sender_scope)
  )`;
}

const STATUS_OF: Record<PreferenceEventType, PreferenceStateRow['status']> = {
  'preference.granted': 'granted',
  'preference.revoked': 'revoked',
  'preference.deleted': 'deleted',
};

const SNAPSHOT_STATUSES = ['granted', 'revoked', 'deleted'] as const;

/** Whether `a` is a later statement of its key than `b`: by effective_at, then transition id. */
export function isNewer(a: PreferenceStateRow, b: PreferenceStateRow): boolean {
  const at = a.effective_at.getTime() - b.effective_at.getTime();
  if (at !== 0) return at > 0;
  return Buffer.compare(Buffer.from(a.transition_id), Buffer.from(b.transition_id)) > 0;
}

const keyOf = (row: PreferenceStateRow) =>
  JSON.stringify([row.workspace_id, row.channel, row.handle, row.sender_scope]);

/**
 * The statements a batch of events brings for `channels`, the newest of each key only (one
 * statement may touch a row once). Events of other channels, topic-scoped ones (topics are
 * reserved, null in v1: no send names one) and malformed ones are left out.
 */
export function preferenceStatesOf(
  events: readonly OutboxEvent[],
  channels: readonly string[],
): PreferenceStateRow[] {
  const newest = new Map<string, PreferenceStateRow>();
  for (const event of events) {
    const data = event.data as (Partial<PreferenceEventData> & { status?: unknown }) | null;
    const status =
      event.type === PREFERENCE_SNAPSHOT_EVENT
        ? SNAPSHOT_STATUSES.find((one) => one === data?.status)
        : (STATUS_OF[event.type as PreferenceEventType] as
            PreferenceStateRow['status'] | undefined);
    const effectiveAt = new Date(event.timestamp);
    if (
      !status ||
      !data ||
      typeof data.handle !== 'string' ||
      typeof data.transition_id !== 'string' ||
      typeof data.channel !== 'string' ||
      !channels.includes(data.channel) ||
      data.topic_id != null ||
      Number.isNaN(effectiveAt.getTime())
    )
      continue;
    const row: PreferenceStateRow = {
      workspace_id: event.workspaceId,
      channel: data.channel,
      handle: data.handle,
      sender_scope: data.sender_scope ?? '',
      status,
      coverage: typeof data.coverage === 'string' ? data.coverage : 'all',
      effective_at: effectiveAt,
      transition_id: data.transition_id,
    };
    const key = keyOf(row);
    const seen = newest.get(key);
    if (!seen || isNewer(row, seen)) newest.set(key, row);
  }
  return [...newest.values()];
}

/**
 * Applies statements to the projection in ONE statement: a key moves only forward (a later
 * effective_at, or the same one and a later transition id), so an event seen twice or after a
 * newer one changes nothing. Answers how many keys moved.
 */
export async function applyPreferenceStates(
  runner: SqlRunner,
  schema: string,
  rows: readonly PreferenceStateRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const moved = rowsOf<{ handle: string }>(
    await runner.query(
      `INSERT INTO ${schema}.preference_states AS p
         (workspace_id, channel, handle, sender_scope, status, coverage, effective_at, transition_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
         $7::timestamptz[], $8::text[])
       ON CONFLICT (workspace_id, channel, handle, sender_scope) DO UPDATE
         SET status = EXCLUDED.status, coverage = EXCLUDED.coverage,
           effective_at = EXCLUDED.effective_at, transition_id = EXCLUDED.transition_id,
           updated_at = clock_timestamp()
         WHERE (EXCLUDED.effective_at, EXCLUDED.transition_id) > (p.effective_at, p.transition_id)
       RETURNING handle`,
      [
        rows.map((row) => row.workspace_id),
        rows.map((row) => row.channel),
        rows.map((row) => row.handle),
        rows.map((row) => row.sender_scope),
        rows.map((row) => row.status),
        rows.map((row) => row.coverage),
        rows.map((row) => row.effective_at),
        rows.map((row) => row.transition_id),
      ],
    ),
  );
  return moved.length;
}

/** The channels' setting for preference enforcement (ADR 14). */
export const preferenceEnforcementEnv = {
  PREFERENCES_ENFORCEMENT: env.boolean({
    default: true,
    description:
      'check recipients against the preference ledger before sending; off only as a measuring aid (the email preferences bench compares both), never in production',
  }),
};
