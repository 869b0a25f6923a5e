import type { SqlRunner } from '../pagination';
import type { OutboxEvent } from './outbox-event';
import { outboxChannel } from './outbox.table';

/**
 * Writes events in the caller's transaction (one statement whatever their number), so they
 * exist exactly when the change that caused them commits, in the order given. The same
 * statement NOTIFYs the relay, which Postgres delivers at commit and never for a rollback.
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
  // The final SELECT reads the notify CTE, which makes Postgres run it.
  await executor.query(
    `WITH inserted AS (
       INSERT INTO "${schema}".outbox (id, type, payload, workspace_id)
       SELECT id, type, payload, workspace_id
       FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[]) WITH ORDINALITY
         AS t(id, type, payload, workspace_id, n)
       ORDER BY n
       RETURNING 1
     ), notified AS (
       SELECT pg_notify($5, '') WHERE EXISTS (SELECT 1 FROM inserted)
     )
     SELECT count(*) AS notified FROM notified`,
    [ids, types, bodies, workspaces, outboxChannel(schema)],
  );
}
