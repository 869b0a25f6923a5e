import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  ListWebhookEndpointsRequest,
  WebhookAttempt,
  WebhookEndpointStatus,
} from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { DELIVER_QUEUE } from '../delivery/delivery.queue';
import { NEW_DELIVERY_ID } from '../delivery/deliveries.repository';

export interface EndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  events: string[];
  status: WebhookEndpointStatus;
  status_reason: string | null;
  consecutive_failures: number;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS =
  'id, workspace_id, url, description, events, status, status_reason, consecutive_failures, failing_since, created_at, updated_at';

export interface AttemptRow {
  id: string;
  event_id: string | null;
  event_type: string;
  status: WebhookAttempt['status'];
  url: string;
  response_status_code: number | null;
  response_body: string | null;
  response_duration_ms: number;
  attempted_at: Date;
  error: string | null;
}

/** Named queries over the webhooks schema's endpoints; every one is scoped by workspace. */
@Injectable()
export class EndpointsRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('webhooks') readonly dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  list(
    workspaceId: string,
    request: ListWebhookEndpointsRequest,
    cursors: CursorCodec,
  ): Promise<Page<EndpointRow>> {
    return paginate<EndpointRow>(
      this.reads,
      {
        from: 'webhooks.endpoints',
        select: ENDPOINT_COLUMNS,
        where: { sql: 'workspace_id = $1', params: [workspaceId] },
        filters: { workspaceId },
        sorts: {
          created_at: { column: 'created_at', type: 'timestamptz' },
          url: { column: 'url', type: 'text' },
        },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
    lock = false,
  ): Promise<EndpointRow | undefined> {
    const rows = rowsOf<EndpointRow>(
      await runner.query(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhooks.endpoints
         WHERE workspace_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  async insert(
    runner: SqlRunner,
    row: Pick<EndpointRow, 'id' | 'workspace_id' | 'url' | 'description' | 'events'>,
    secret: { id: string; sealed: string },
  ): Promise<EndpointRow> {
    const rows = rowsOf<EndpointRow>(
      await runner.query(
        `WITH e AS (
           INSERT INTO webhooks.endpoints (id, workspace_id, url, description, events)
           VALUES ($1, $2, $3, $4, $5) RETURNING ${ENDPOINT_COLUMNS}
         ), s AS (
           INSERT INTO webhooks.secrets (id, endpoint_id, secret_sealed) VALUES ($6, $1, $7)
         )
         SELECT * FROM e`,
        [row.id, row.workspace_id, row.url, row.description, row.events, secret.id, secret.sealed],
      ),
    );
    return rows[0];
  }

  /** Sets the given fields; `status` also resets (active) or records (paused) the failure streak. */
  async update(
    runner: SqlRunner,
    workspaceId: string,
    id: string,
    changes: {
      url?: string;
      description?: string;
      events?: string[];
      status?: 'active' | 'paused';
    },
  ): Promise<EndpointRow | undefined> {
    const rows = rowsOf<EndpointRow>(
      await runner.query(
        `UPDATE webhooks.endpoints SET
           url = COALESCE($3, url),
           description = COALESCE($4, description),
           events = COALESCE($5, events),
           status = CASE
             WHEN $6::text = 'paused' THEN 'paused'
             WHEN $6::text = 'active' AND status = 'paused' THEN 'active'
             ELSE status END,
           status_reason = CASE
             WHEN $6::text = 'paused' AND status <> 'paused' THEN 'paused by request'
             WHEN $6::text = 'active' AND status = 'paused' THEN NULL
             ELSE status_reason END,
           consecutive_failures = CASE WHEN $6::text = 'active' AND status = 'paused' THEN 0
             ELSE consecutive_failures END,
           failing_since = CASE WHEN $6::text = 'active' AND status = 'paused' THEN NULL
             ELSE failing_since END,
           updated_at = now()
         WHERE workspace_id = $1 AND id = $2
         RETURNING ${ENDPOINT_COLUMNS}`,
        [
          workspaceId,
          id,
          changes.url ?? null,
          changes.description ?? null,
          changes.events ?? null,
          changes.status ?? null,
        ],
      ),
    );
    return rows[0];
  }

  async delete(runner: SqlRunner, workspaceId: string, id: string): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(
        'DELETE FROM webhooks.endpoints WHERE workspace_id = $1 AND id = $2 RETURNING id',
        [workspaceId, id],
      ),
    );
    return rows.length > 0;
  }

  /** The endpoint's secrets that still sign, newest first, sealed. */
  async validSecrets(endpointId: string, runner: SqlRunner = this.reads): Promise<string[]> {
    const rows = rowsOf<{ secret_sealed: string }>(
      await runner.query(
        `SELECT secret_sealed FROM webhooks.secrets
         WHERE endpoint_id = $1 AND (expires_at IS NULL OR expires_at > now())
         ORDER BY created_at DESC, id DESC`,
        [endpointId],
      ),
    );
    return rows.map((row) => row.secret_sealed);
  }

  /**
   * A new secret; every secret that signed until now keeps signing for `overlapHours`. Runs
   * under the endpoint's row lock (the caller's), so two rotations count in turn.
   */
  async rotate(
    runner: SqlRunner,
    endpointId: string,
    secret: { id: string; sealed: string },
    overlapHours: number,
  ): Promise<void> {
    await runner.query(
      `WITH old AS (
         UPDATE webhooks.secrets SET expires_at = now() + make_interval(hours => $4)
         WHERE endpoint_id = $1 AND expires_at IS NULL
       )
       INSERT INTO webhooks.secrets (id, endpoint_id, secret_sealed) VALUES ($2, $1, $3)`,
      [endpointId, secret.id, secret.sealed, overlapHours],
    );
  }

  /** Attempts newest first, bounded by `before` / `after` on attempted_at. */
  async attempts(
    endpointId: string,
    limit: number,
    before?: string,
    after?: string,
  ): Promise<AttemptRow[]> {
    return rowsOf<AttemptRow>(
      await this.reads.query(
        `SELECT id, event_id, event_type, status, url, response_status_code, response_body,
           response_duration_ms, attempted_at, error
         FROM webhooks.attempts
         WHERE endpoint_id = $1
           AND ($2::timestamptz IS NULL OR attempted_at < $2)
           AND ($3::timestamptz IS NULL OR attempted_at > $3)
         ORDER BY attempted_at DESC, id DESC
         LIMIT $4`,
        [endpointId, before ?? null, after ?? null, limit],
      ),
    );
  }

  /**
   * Queues, as new deliveries (new `webhook-id`s), the workspace's events of the endpoint's
   * types that occurred in [since, until) since the endpoint exists and that it has neither
   * received nor has on the way. Answers how many.
   */
  async replay(
    runner: SqlRunner,
    endpoint: EndpointRow,
    since: Date,
    until: Date,
  ): Promise<number> {
    const rows = rowsOf(
      await runner.query(
        `WITH d AS (
           INSERT INTO webhooks.deliveries (id, endpoint_id, workspace_id, event_id, origin)
           SELECT ${NEW_DELIVERY_ID}, $1, ev.workspace_id, ev.id,
             'replay'
           FROM webhooks.events ev
           WHERE ev.workspace_id = $2 AND ev.type = ANY($3)
             AND ev.occurred_at >= greatest($4::timestamptz, $7::timestamptz)
             AND ev.occurred_at < $5
             AND NOT EXISTS (
               SELECT 1 FROM webhooks.deliveries x
               WHERE x.endpoint_id = $1 AND x.event_id = ev.id
                 AND x.status IN ('delivered', 'pending')
             )
           ORDER BY ev.occurred_at, ev.id
           RETURNING id
         )
         INSERT INTO webhooks.jobs (queue, payload)
         SELECT $6, jsonb_build_object('delivery_id', id) FROM d
         RETURNING 1`,
        [
          endpoint.id,
          endpoint.workspace_id,
          endpoint.events,
          since,
          until,
          DELIVER_QUEUE,
          endpoint.created_at,
        ],
      ),
    );
    return rows.length;
  }
}
