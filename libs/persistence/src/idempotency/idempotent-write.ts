import { CommonErrors } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { AppError, workspaceOf } from '@switchboard/platform';
import type { SealedBox } from '@switchboard/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { SqlRunner } from '../pagination/keyset-paginator';
import { rowsOf } from '../pg-errors';

export interface IdempotencyScope {
  workspaceId: string;
  key?: string;
  fingerprint?: string;
}

/** The idempotency scope of a request a service answers: its workspace, key and fingerprint. */
export function idempotencyScope(context: RequestContext): IdempotencyScope {
  return {
    workspaceId: workspaceOf(context),
    key: context.idempotencyKey,
    fingerprint: context.idempotencyFingerprint,
  };
}

/**
 * The service's half of idempotency: the key is claimed inside the same transaction as the write,
 * so however many gateways forward the same retry, one transaction creates the resource and the
 * others (blocked on the unique key until it commits) return its stored reply. The reply is
 * sealed because it may carry a one-time secret.
 *
 * The service's schema needs `idempotency_records (workspace_id, key, fingerprint, reply,
 * created_at)` with primary key (workspace_id, key): see `idempotencyRecordsTable`.
 */
export async function idempotentWrite<T>(
  dataSource: DataSource,
  schema: string,
  scope: IdempotencyScope,
  box: SealedBox,
  write: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (!scope.key) return dataSource.transaction(write);
  return dataSource.transaction(async (manager) => {
    const earlier = await claimKey<T>(manager, schema, scope, box);
    if (earlier) return earlier.reply;
    const reply = await write(manager);
    await storeReply(manager, schema, scope, box, reply);
    return reply;
  });
}

/**
 * Claims the scope's key in the caller's transaction; answers the earlier request's reply when
 * the key was claimed before. A key used with another body is E01005; one whose first request
 * has no reply yet is E01004 (still in progress).
 */
export async function claimKey<T>(
  runner: SqlRunner,
  schema: string,
  scope: IdempotencyScope,
  box: SealedBox,
): Promise<{ reply: T } | undefined> {
  const { key, fingerprint } = scope;
  const claimed = rowsOf(
    await runner.query(
      `INSERT INTO "${schema}".idempotency_records (workspace_id, key, fingerprint) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, key) DO NOTHING RETURNING key`,
      [scope.workspaceId, key, fingerprint ?? ''],
    ),
  );
  if (claimed.length > 0) return undefined;
  const [earlier] = rowsOf<{ fingerprint: string; reply: string | null }>(
    await runner.query(
      `SELECT fingerprint, reply FROM "${schema}".idempotency_records WHERE workspace_id = $1 AND key = $2`,
      [scope.workspaceId, key],
    ),
  );
  if (earlier && fingerprint && earlier.fingerprint !== fingerprint)
    throw new AppError(CommonErrors.IdempotencyKeyReuse);
  if (earlier?.reply) return { reply: JSON.parse(box.open(earlier.reply)) as T };
  throw new AppError(CommonErrors.RequestInProgress, { headers: { 'retry-after': '1' } });
}

/** Stores (or replaces) the reply a claimed key answers, sealed. */
export async function storeReply(
  runner: SqlRunner,
  schema: string,
  scope: IdempotencyScope,
  box: SealedBox,
  reply: unknown,
): Promise<void> {
  await runner.query(
    `UPDATE "${schema}".idempotency_records SET reply = $3 WHERE workspace_id = $1 AND key = $2`,
    [scope.workspaceId, scope.key, box.seal(JSON.stringify(reply ?? null))],
  );
}

/** Drops a claimed key and its reply. */
export async function forgetKey(
  runner: SqlRunner,
  schema: string,
  scope: IdempotencyScope,
): Promise<void> {
  await runner.query(
    `DELETE FROM "${schema}".idempotency_records WHERE workspace_id = $1 AND key = $2`,
    [scope.workspaceId, scope.key],
  );
}

/**
 * The stored reply of an earlier request with this key, if there is one: for a service that
 * checks preconditions before its write (a sender's domain), so a retry replays what the first
 * request answered even when the precondition no longer holds. A key used with another body is
 * E01005; a key whose first request is still running, or none, gives undefined (the write's own
 * claim then decides).
 */
export async function storedReply<T>(
  dataSource: DataSource,
  schema: string,
  scope: IdempotencyScope,
  box: SealedBox,
): Promise<T | undefined> {
  if (!scope.key) return undefined;
  const [earlier] = rowsOf<{ fingerprint: string; reply: string | null }>(
    await dataSource.query(
      `SELECT fingerprint, reply FROM "${schema}".idempotency_records WHERE workspace_id = $1 AND key = $2`,
      [scope.workspaceId, scope.key],
    ),
  );
  if (!earlier) return undefined;
  if (scope.fingerprint && earlier.fingerprint !== scope.fingerprint)
    throw new AppError(CommonErrors.IdempotencyKeyReuse);
  return earlier.reply ? (JSON.parse(box.open(earlier.reply)) as T) : undefined;
}

/** DDL of a service's idempotency records, for its migration. */
export function idempotencyRecordsTable(schema: string): string {
  return `CREATE TABLE "${schema}".idempotency_records (
    workspace_id text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    reply text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, key)
  );
  CREATE INDEX idempotency_records_created_idx ON "${schema}".idempotency_records (created_at);`;
}

/** Deletes records older than the retention; run periodically by the service. */
export async function purgeIdempotencyRecords(
  dataSource: DataSource,
  schema: string,
  retentionHours: number,
): Promise<number> {
  const rows = rowsOf(
    await dataSource.query(
      `DELETE FROM "${schema}".idempotency_records WHERE created_at < now() - make_interval(hours => $1) RETURNING key`,
      [retentionHours],
    ),
  );
  return rows.length;
}
