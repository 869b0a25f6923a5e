import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isInternalEventType } from '@switchboard/contracts';
import type { WebhookEndpointStatus } from '@switchboard/contracts';
import { claimedOnInsert, completedJobsCte } from '@switchboard/background';
import type { ClaimedRow, JobReservation } from '@switchboard/background';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { DELIVER_QUEUE } from './delivery.queue';

/** What one delivery job sends: the delivery, its endpoint now, the event and the secrets. */
export interface PendingDelivery {
  id: string;
  status: string;
  attempts: number;
  endpoint_id: string;
  workspace_id: string;
  url: string;
  endpoint_status: WebhookEndpointStatus;
  event_id: string;
  event_type: string;
  body: unknown;
  /** Sealed, newest first. */
  secrets: string[];
}

/**
 * A new delivery's id, its `webhook-id`: `msg_`, the milliseconds since the epoch (12 hex
 * digits) and 20 random hex digits. Ids in creation order are appended to the indexes that
 * hold them rather than scattered over their pages.
 */
export const NEW_DELIVERY_ID = `'msg_' || lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0')
  || substr(replace(gen_random_uuid()::text, '-', ''), 13)`;

/** A delivery the intake stored with its job claimed by the delivery worker. */
export interface ClaimedDelivery {
  job: ClaimedRow;
  delivery: PendingDelivery;
}

/** A claimed job's row as the intake statement answers it (JSON: times as text). */
interface IntakeClaim {
  job_id: string;
  attempts: number;
  run_at: string;
  id: string;
  endpoint_id: string;
  workspace_id: string;
  event_id: string;
  event_type: string;
  body: unknown;
  url: string;
  endpoint_status: WebhookEndpointStatus;
  secrets: string[];
}

/** One attempt's record and what follows for its delivery. */
export interface AttemptRecord {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  workspace_id: string;
  event_id: string;
  event_type: string;
  status: 'delivered' | 'failed';
  url: string;
  response_status_code: number | null;
  response_body: string | null;
  response_duration_ms: number;
  error: string | null;
  attempted_at: string;
  /** The delivery's state after this attempt. */
  delivery_status: 'delivered' | 'pending' | 'given_up';
}

/** How one endpoint fared in a batch of attempts, in the order they finished. */
export interface EndpointHealth {
  id: string;
  /** Failures after the batch's last success (all of them when none succeeded). */
  failures: number;
  succeeded: boolean;
  /** The receiver answered 410 Gone: the endpoint is paused at once. */
  gone: boolean;
}

export interface StatusChange {
  id: string;
  workspace_id: string;
  was: WebhookEndpointStatus;
  status: WebhookEndpointStatus;
  status_reason: string | null;
}

/**
 * Named queries of intake and delivery, each statement for a whole batch. Those without a
 * runner commit on their own on the pool; the others run in the caller's transaction.
 */
@Injectable()
export class DeliveriesRepository {
  private readonly autocommit: SqlRunner;

  constructor(@InjectDataSource('webhooks') dataSource: DataSource) {
    this.autocommit = poolRunner(dataSource);
  }

  /**
   * Stores a batch of bus events (an event seen before is skipped: the bus delivers at least
   * once) and, for each new one, a delivery and its job per endpoint of the workspace that
   * subscribes to its type and is not paused: only a new event gets deliveries, so an endpoint
   * gets each event once. Events of a workspace without any endpoint are
   * not kept: no delivery or replay could ever use them (replays start at an endpoint's
   * creation). Internal events (`internal.*`, between services) are never stored, so nothing can
   * deliver or replay them. The first `reservation.count` jobs are inserted claimed by the
   * delivery worker (`JobReservation`) and answered with what their sends need, so the worker
   * neither claims nor reads them. One statement; answers how many new events and deliveries.
   */
  async intake(
    batch: readonly OutboxEvent[],
    reservation: Pick<JobReservation, 'params'>,
  ): Promise<{ events: number; deliveries: number; claimed: ClaimedDelivery[] }> {
    const events = webhookEventsOf(batch);
    if (events.length === 0) return { events: 0, deliveries: 0, claimed: [] };
    const [counts] = rowsOf<{ events: number; deliveries: number; claimed: IntakeClaim[] | null }>(
      await this.autocommit.query(
        `WITH incoming AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb)
             AS x(id text, workspace_id text, type text, body jsonb, occurred_at timestamptz, n int)
         ), ev AS (
           INSERT INTO webhooks.events (id, workspace_id, type, body, occurred_at)
           SELECT id, workspace_id, type, body, occurred_at FROM incoming
           WHERE EXISTS (SELECT 1 FROM webhooks.endpoints e WHERE e.workspace_id = incoming.workspace_id)
           ORDER BY n
           ON CONFLICT (id) DO NOTHING
           RETURNING id, workspace_id, type, body
         ), d AS (
           INSERT INTO webhooks.deliveries (id, endpoint_id, workspace_id, event_id, origin)
           SELECT ${NEW_DELIVERY_ID}, e.id, ev.workspace_id, ev.id, 'event'
           FROM ev JOIN webhooks.endpoints e
             ON e.workspace_id = ev.workspace_id AND e.status <> 'paused' AND ev.type = ANY(e.events)
           RETURNING id, endpoint_id, workspace_id, event_id
         ), ranked AS (
           -- The bus's order (then the endpoint's), whatever order the join produced.
           SELECT d.*, row_number() OVER (ORDER BY incoming.n, d.endpoint_id) AS rank
           FROM d JOIN incoming ON incoming.id = d.event_id
         ), j AS (
           INSERT INTO webhooks.jobs (queue, payload, attempts, locked_until, locked_by)
           SELECT $2, jsonb_build_object('delivery_id', id), ${claimedOnInsert('rank', 3)}
           FROM ranked ORDER BY rank
           RETURNING id, payload->>'delivery_id' AS delivery_id, attempts, run_at
         ), targets AS MATERIALIZED (
           SELECT e.id, e.url, e.status,
             ARRAY(SELECT s.secret_sealed FROM webhooks.secrets s
                   WHERE s.endpoint_id = e.id AND (s.expires_at IS NULL OR s.expires_at > now())
                   ORDER BY s.created_at DESC, s.id DESC) AS secrets
           FROM webhooks.endpoints e WHERE e.id IN (SELECT endpoint_id FROM ranked)
         ), claimed AS (
           SELECT j.id::text AS job_id, j.attempts, j.run_at, ranked.id, ranked.endpoint_id,
             ranked.workspace_id, ranked.event_id, ev.type AS event_type, ev.body, t.url,
             t.status AS endpoint_status, t.secrets
           FROM j JOIN ranked ON ranked.id = j.delivery_id
           JOIN ev ON ev.id = ranked.event_id
           JOIN targets t ON t.id = ranked.endpoint_id
           WHERE j.attempts = 1
         )
         SELECT (SELECT count(*) FROM ev)::int AS events, (SELECT count(*) FROM j)::int AS deliveries,
           (SELECT json_agg(claimed ORDER BY job_id::bigint) FROM claimed) AS claimed`,
        [
          JSON.stringify(
            events.map((event, n) => ({
              id: event.id,
              workspace_id: event.workspaceId,
              type: event.type,
              body: { type: event.type, timestamp: event.timestamp, data: event.data ?? null },
              occurred_at: event.timestamp,
              n,
            })),
          ),
          DELIVER_QUEUE,
          ...reservation.params,
        ],
      ),
    );
    // The body as stored (jsonb's key order), the same bytes a retry reads back and signs.
    const claimed = (counts.claimed ?? []).map((row): ClaimedDelivery => ({
      job: {
        id: row.job_id,
        queue: DELIVER_QUEUE,
        payload: { delivery_id: row.id },
        attempts: row.attempts,
        run_at: new Date(row.run_at),
      },
      delivery: {
        id: row.id,
        status: 'pending',
        attempts: 0,
        endpoint_id: row.endpoint_id,
        workspace_id: row.workspace_id,
        url: row.url,
        endpoint_status: row.endpoint_status,
        event_id: row.event_id,
        event_type: row.event_type,
        body: row.body,
        secrets: row.secrets,
      },
    }));
    return { events: counts.events, deliveries: counts.deliveries, claimed };
  }

  async pending(deliveryIds: string[]): Promise<PendingDelivery[]> {
    return rowsOf<PendingDelivery>(
      await this.autocommit.query(
        `SELECT d.id, d.status, d.attempts, d.endpoint_id, d.workspace_id, e.url,
           e.status AS endpoint_status, d.event_id, ev.type AS event_type, ev.body,
           ARRAY(SELECT s.secret_sealed FROM webhooks.secrets s
                 WHERE s.endpoint_id = e.id AND (s.expires_at IS NULL OR s.expires_at > now())
                 ORDER BY s.created_at DESC, s.id DESC) AS secrets
         FROM webhooks.deliveries d
         JOIN webhooks.endpoints e ON e.id = d.endpoint_id
         JOIN webhooks.events ev ON ev.id = d.event_id
         WHERE d.id = ANY($1)`,
        [deliveryIds],
      ),
    );
  }

  /** Deliveries that will not be attempted (their endpoint is paused): final, not delivered. */
  async skip(runner: SqlRunner, deliveryIds: string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await runner.query(
      `UPDATE webhooks.deliveries SET status = 'skipped', finished_at = now()
       WHERE id = ANY($1) AND status = 'pending'`,
      [deliveryIds],
    );
  }

  /** Every attempt of the batch and its delivery's new state, in one statement. */
  async recordAttempts(runner: SqlRunner, attempts: AttemptRecord[]): Promise<void> {
    if (attempts.length === 0) return;
    await runner.query(
      `WITH a AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS a(id text, delivery_id text,
           endpoint_id text, workspace_id text, event_id text, event_type text, status text,
           url text, response_status_code int, response_body text, response_duration_ms int,
           error text, attempted_at timestamptz, delivery_status text)
       ), inserted AS (
         INSERT INTO webhooks.attempts (id, delivery_id, endpoint_id, workspace_id, event_id,
           event_type, status, url, response_status_code, response_body, response_duration_ms,
           error, attempted_at)
         SELECT id, delivery_id, endpoint_id, workspace_id, event_id, event_type, status, url,
           response_status_code, response_body, response_duration_ms, error, attempted_at
         FROM a WHERE EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.id = a.delivery_id)
       )
       UPDATE webhooks.deliveries d SET status = a.delivery_status, attempts = d.attempts + 1,
         finished_at = CASE WHEN a.delivery_status = 'pending' THEN NULL ELSE now() END
       FROM a WHERE d.id = ANY($2) AND d.id = a.delivery_id`,
      [JSON.stringify(attempts), attempts.map((attempt) => attempt.delivery_id)],
    );
  }

  /**
   * The common case of a recording, every attempt delivered, in one statement in autocommit (one
   * round trip and one commit, where the general case takes a transaction of five): the jobs
   * deleted (fenced, so a job another worker took over is left to it), the attempts of those
   * jobs and their deliveries marked delivered, and their endpoints' failure streaks cleared,
   * writing only the endpoints that had one (`degraded` ones back to `active`). Answers the
   * deleted jobs' ids and the endpoints that recovered.
   */
  async recordDelivered(
    attempts: AttemptRecord[],
    fences: Array<{ id: string; attempts: number }>,
  ): Promise<{ deletedJobIds: Set<string>; recovered: StatusChange[] }> {
    const [row] = rowsOf<{ done: string[] | null; recovered: StatusChange[] | null }>(
      await this.autocommit.query(
        `WITH ${completedJobsCte('webhooks', 1, 'delivery_id')}, a AS (
           SELECT * FROM jsonb_to_recordset($3::jsonb) AS a(id text, delivery_id text,
             endpoint_id text, workspace_id text, event_id text, event_type text, status text,
             url text, response_status_code int, response_body text, response_duration_ms int,
             error text, attempted_at timestamptz)
           WHERE a.delivery_id IN (SELECT key FROM done)
         ), inserted AS (
           INSERT INTO webhooks.attempts (id, delivery_id, endpoint_id, workspace_id, event_id,
             event_type, status, url, response_status_code, response_body, response_duration_ms,
             error, attempted_at)
           SELECT id, delivery_id, endpoint_id, workspace_id, event_id, event_type, status, url,
             response_status_code, response_body, response_duration_ms, error, attempted_at
           FROM a WHERE EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.id = a.delivery_id)
         ), delivered AS (
           UPDATE webhooks.deliveries d SET status = 'delivered', attempts = d.attempts + 1,
             finished_at = now()
           FROM a WHERE d.id = a.delivery_id
         ), streaks AS (
           SELECT e.id, e.status AS was FROM webhooks.endpoints e
           WHERE e.id IN (SELECT endpoint_id FROM a)
             AND (e.consecutive_failures <> 0 OR e.failing_since IS NOT NULL OR e.status = 'degraded')
           ORDER BY e.id FOR UPDATE
         ), recovered AS (
           UPDATE webhooks.endpoints e SET consecutive_failures = 0, failing_since = NULL,
             status = CASE WHEN e.status = 'degraded' THEN 'active' ELSE e.status END,
             status_reason = CASE WHEN e.status = 'degraded' THEN NULL ELSE e.status_reason END
           FROM streaks WHERE e.id = streaks.id
           RETURNING e.id, e.workspace_id, streaks.was, e.status, e.status_reason
         )
         SELECT (SELECT array_agg(id::text) FROM done) AS done,
           (SELECT json_agg(recovered) FROM recovered) AS recovered`,
        [
          fences.map((fence) => fence.id),
          fences.map((fence) => fence.attempts),
          JSON.stringify(attempts),
        ],
      ),
    );
    return {
      deletedJobIds: new Set(row?.done ?? []),
      recovered: (row?.recovered ?? []).filter((change) => change.was !== change.status),
    };
  }

  /**
   * Endpoints' health after a batch: the failure streak, `degraded` after `degradeAfter`
   * failures in a row, `paused` on a 410 or once failing for `pauseAfterMinutes` without a
   * success, back to `active` from `degraded` on a success. Answers the status changes.
   */
  async updateHealth(
    runner: SqlRunner,
    health: EndpointHealth[],
    degradeAfter: number,
    pauseAfterMinutes: number,
  ): Promise<StatusChange[]> {
    if (health.length === 0) return [];
    return rowsOf<StatusChange>(
      await runner.query(
        `WITH h AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb)
             AS h(id text, failures int, succeeded boolean, gone boolean)
         ), old AS (
           SELECT e.id, e.status, e.failing_since, e.consecutive_failures
           FROM webhooks.endpoints e WHERE e.id = ANY($2) ORDER BY e.id FOR UPDATE
         ), next AS (
           SELECT old.id, old.status AS was, h.gone,
             CASE WHEN h.succeeded THEN h.failures
               ELSE old.consecutive_failures + h.failures END AS failures,
             CASE WHEN h.failures = 0 THEN NULL
               WHEN h.succeeded THEN now()
               ELSE COALESCE(old.failing_since, now()) END AS failing_since
           FROM old JOIN h ON h.id = old.id
         )
         UPDATE webhooks.endpoints e SET
           consecutive_failures = next.failures,
           failing_since = next.failing_since,
           status = CASE
             WHEN next.was = 'paused' THEN 'paused'
             WHEN next.gone THEN 'paused'
             WHEN next.failing_since <= now() - make_interval(mins => $4) THEN 'paused'
             WHEN next.failures >= $3 THEN 'degraded'
             ELSE 'active' END,
           status_reason = CASE
             WHEN next.was = 'paused' THEN e.status_reason
             WHEN next.gone THEN 'the receiver answered 410 Gone'
             WHEN next.failing_since <= now() - make_interval(mins => $4)
               THEN 'deliveries failed for ' || $4 || ' minutes'
             WHEN next.failures >= $3 THEN next.failures || ' deliveries failed in a row'
             ELSE NULL END
         FROM next WHERE e.id = next.id
         RETURNING e.id, e.workspace_id, next.was, e.status, e.status_reason`,
        [JSON.stringify(health), health.map((entry) => entry.id), degradeAfter, pauseAfterMinutes],
      ),
    ).filter((change) => change.was !== change.status);
  }

  /** Events (their deliveries and attempts with them) received before the retention. */
  async purgeEvents(retentionDays: number): Promise<number> {
    let purged = 0;
    for (;;) {
      const rows = rowsOf(
        await this.autocommit.query(
          `DELETE FROM webhooks.events WHERE id IN (
             SELECT id FROM webhooks.events
             WHERE received_at < now() - make_interval(days => $1) LIMIT 1000
           ) RETURNING id`,
          [retentionDays],
        ),
      );
      purged += rows.length;
      if (rows.length < 1000) return purged;
    }
  }
}

/** The events of a bus batch webhooks may carry: everything but the services' internal ones. */
export function webhookEventsOf(batch: readonly OutboxEvent[]): OutboxEvent[] {
  return batch.filter((event) => !isInternalEventType(event.type));
}
