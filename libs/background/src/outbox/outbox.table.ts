/** The NOTIFY channel the outbox writers wake the relay on. */
export function outboxChannel(schema: string): string {
  return `${schema}_outbox`;
}

/**
 * DDL of a service's outbox, for its migration. `payload` is the event body `{type, timestamp,
 * data}`; `seq` keeps the order rows were written in (several rows of one transaction share
 * `created_at`). A partial index serves the relay's scan of unpublished rows, another the purge
 * of old published ones.
 */
export function outboxTable(schema: string): string {
  return `CREATE TABLE "${schema}".outbox (
    id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    type text NOT NULL,
    payload jsonb NOT NULL,
    workspace_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz,
    attempts integer NOT NULL DEFAULT 0
  );
  CREATE INDEX outbox_unpublished_idx ON "${schema}".outbox (seq) WHERE published_at IS NULL;
  CREATE INDEX outbox_published_idx ON "${schema}".outbox (published_at) WHERE published_at IS NOT NULL;`;
}
