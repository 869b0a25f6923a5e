import type { SqlRunner } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';

/**
 * Writes events in the caller's transaction (one statement whatever their number), so they
 * exist exactly when the change that caused them commits, in the order given. After the
 * commit, the caller wakes the relay with `wakeRelay` (libs/persistence notify/).
 */
export async function writeOutboxEvents(
  executor: SqlRunner,
  schema: string,
  events: readonly OutboxEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const ids = events.map((event) => event.id);
  const types = events.map((event) => event.type);
  const bodies = events.map(({ type, timestamp, data }) =>
    JSON.stringify({ type, timestamp, data: data ?? null }),
  );
  const workspaces = events.map((event) => event.workspaceId);
  await executor.query(
    `INSERT INTO "${schema}".outbox (id, type, payload, workspace_id)
     SELECT id, type, payload, workspace_id
     FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[]) WITH ORDINALITY
       AS t(id, type, payload, workspace_id, n)
     ORDER BY n`,
    [ids, types, bodies, workspaces],
  );
}
