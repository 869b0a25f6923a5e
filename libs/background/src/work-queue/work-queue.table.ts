/** The NOTIFY channel of a schema's work queue; the payload is the queue name. */
export function jobsChannel(schema: string): string {
  return `${schema}_jobs`;
}

/**
 * DDL of a service's work queue, for its migration. One table holds every queue of the schema
 * (`queue` names it). A row exists while its job is pending or running and is deleted when the
 * job completes, so the table stays small and the claim index stays hot.
 *
 * `locked_until` is the lease of the worker running the job: set by the claim, cleared by a
 * reschedule; once it passes (the worker died) the job can be claimed again. `attempts` counts
 * claims and doubles as the fencing token: a worker whose lease was taken over cannot complete
 * or reschedule the job any more. `locked_by` (added by `workQueueOwnerColumn`) names the claiming
 * worker's presence (`WorkerPresence`), so a dead worker's jobs are taken over before their leases
 * run out.
 */
export function workQueueTable(schema: string): string {
  return `CREATE TABLE "${schema}".jobs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    queue text NOT NULL,
    payload jsonb NOT NULL,
    run_at timestamptz NOT NULL DEFAULT now(),
    attempts integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX jobs_claim_idx ON "${schema}".jobs (queue, run_at, id);`;
}

/**
 * DDL adding `locked_by` to a work queue created by `workQueueTable` (issue 17): the presence id
 * of the worker holding the job's lease, null while nobody runs it or when the worker claimed it
 * without a presence (its connection was down). A new migration of each service runs it.
 */
export function workQueueOwnerColumn(schema: string): string {
  return `ALTER TABLE "${schema}".jobs ADD COLUMN IF NOT EXISTS locked_by integer;`;
}
