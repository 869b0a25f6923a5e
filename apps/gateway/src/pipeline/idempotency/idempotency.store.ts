import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { purgeIdempotencyRecords, rowsOf } from '@switchboard/persistence';
import { SealedBox } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { GATEWAY_CONFIG } from '../../config/gateway.config';
import type { GatewayConfig } from '../../config/gateway.config';

/** How long a request holds its key before another gateway may take the key over. */
export const IDEMPOTENCY_LOCK_SECONDS = 30;

export interface StoredOutcome {
  status: number;
  body?: unknown;
  error?: {
    code: string;
    message: string;
    details?: Array<{ param: string; message: string }>;
    param?: string;
  };
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; outcome: StoredOutcome }
  | { kind: 'mismatch' }
  | { kind: 'in_progress'; retryAfterSeconds: number };

/** Idempotency keys in the gateway schema; outcomes are sealed (they may carry one-time secrets). */
@Injectable()
export class IdempotencyStore {
  private readonly box: SealedBox;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @InjectDataSource('gateway') private readonly dataSource: DataSource,
  ) {
    this.box = new SealedBox(config.ENCRYPTION_KEY);
  }

  /** Claims the key for this request, or says why not: replay, another request, or in flight. */
  async claim(scope: string, key: string, fingerprint: string): Promise<Claim> {
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO gateway.idempotency_keys (scope, key, fingerprint, state, locked_until, expires_at)
       VALUES ($1, $2, $3, 'in_progress', now() + make_interval(secs => $4), now() + make_interval(hours => $5))
       ON CONFLICT (scope, key) DO NOTHING RETURNING key`,
      [scope, key, fingerprint, IDEMPOTENCY_LOCK_SECONDS, this.config.IDEMPOTENCY_TTL_HOURS],
    );
    if (inserted.length > 0) return { kind: 'claimed' };
    const [row] = await this.dataSource.query<
      Array<{
        fingerprint: string;
        state: string;
        status: number;
        outcome_sealed: string | null;
        expired: boolean;
        wait: number;
      }>
    >(
      `SELECT fingerprint, state, status, outcome_sealed, expires_at < now() AS expired,
              GREATEST(1, CEIL(EXTRACT(EPOCH FROM locked_until - now())))::int AS wait
         FROM gateway.idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    if (!row) return this.claim(scope, key, fingerprint);
    if (row.expired) {
      // Past its retention the key is free again, whether or not the purge has run yet.
      await this.dataSource.query(
        'DELETE FROM gateway.idempotency_keys WHERE scope = $1 AND key = $2 AND expires_at < now()',
        [scope, key],
      );
      return this.claim(scope, key, fingerprint);
    }
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.state === 'completed' && row.outcome_sealed)
      return {
        kind: 'replay',
        outcome: JSON.parse(this.box.open(row.outcome_sealed)) as StoredOutcome,
      };
    // A holder that died leaves its lock to expire; the next retry takes the key over.
    const taken = rowsOf(
      await this.dataSource.query(
        `UPDATE gateway.idempotency_keys SET locked_until = now() + make_interval(secs => $3)
        WHERE scope = $1 AND key = $2 AND state = 'in_progress' AND locked_until < now() RETURNING key`,
        [scope, key, IDEMPOTENCY_LOCK_SECONDS],
      ),
    );
    return taken.length > 0
      ? { kind: 'claimed' }
      : { kind: 'in_progress', retryAfterSeconds: row.wait };
  }

  async complete(scope: string, key: string, outcome: StoredOutcome): Promise<void> {
    await this.dataSource.query(
      `UPDATE gateway.idempotency_keys SET state = 'completed', status = $3, outcome_sealed = $4 WHERE scope = $1 AND key = $2`,
      [scope, key, outcome.status, this.box.seal(JSON.stringify(outcome))],
    );
  }

  /** Outcomes that are not kept (5xx, 429, 503) release the key so a retry can succeed. */
  async release(scope: string, key: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM gateway.idempotency_keys WHERE scope = $1 AND key = $2 AND state = 'in_progress'`,
      [scope, key],
    );
  }

  /** Expired keys, and the records the gateway's own writes (operator API) claimed in their transactions. */
  async purgeExpired(): Promise<number> {
    const rows = rowsOf(
      await this.dataSource.query(
        'DELETE FROM gateway.idempotency_keys WHERE expires_at < now() RETURNING key',
      ),
    );
    const records = await purgeIdempotencyRecords(
      this.dataSource,
      'gateway',
      this.config.IDEMPOTENCY_TTL_HOURS,
    );
    return rows.length + records;
  }
}
