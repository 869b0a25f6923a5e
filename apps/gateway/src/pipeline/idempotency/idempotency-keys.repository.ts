import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { rowsOf } from '@switchboard/persistence';
import type { ExpiringRecords } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

/** A key as a request that could not claim it reads it. */
export interface IdempotencyKeyRow {
  fingerprint: string;
  state: string;
  status: number;
  outcome_sealed: string | null;
  /** Past its retention (`expires_at`). */
  expired: boolean;
  /** Seconds until its holder's lock runs out, at least 1. */
  wait: number;
}

/**
 * Named queries over gateway.idempotency_keys, the gateway's half of idempotency. Its expired
 * keys are purged with the gateway's idempotency records (see `ServiceDataModule`'s `purgeAlso`).
 */
@Injectable()
export class IdempotencyKeysRepository implements ExpiringRecords {
  constructor(@InjectDataSource('gateway') private readonly dataSource: DataSource) {}

  /** Inserts the key in progress, locked for `lockSeconds`; false when it exists already. */
  async claim(
    scope: string,
    key: string,
    fingerprint: string,
    lockSeconds: number,
    ttlHours: number,
  ): Promise<boolean> {
    const inserted = rowsOf(
      await this.dataSource.query(
        `INSERT INTO gateway.idempotency_keys (scope, key, fingerprint, state, locked_until, expires_at)
         VALUES ($1, $2, $3, 'in_progress', now() + make_interval(secs => $4), now() + make_interval(hours => $5))
         ON CONFLICT (scope, key) DO NOTHING RETURNING key`,
        [scope, key, fingerprint, lockSeconds, ttlHours],
      ),
    );
    return inserted.length > 0;
  }

  async find(scope: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    const [row] = rowsOf<IdempotencyKeyRow>(
      await this.dataSource.query(
        `SELECT fingerprint, state, status, outcome_sealed, expires_at < now() AS expired,
                GREATEST(1, CEIL(EXTRACT(EPOCH FROM locked_until - now())))::int AS wait
           FROM gateway.idempotency_keys WHERE scope = $1 AND key = $2`,
        [scope, key],
      ),
    );
    return row;
  }

  /** Deletes the key if it is past its retention (whether or not the purge has run yet). */
  async deleteIfExpired(scope: string, key: string): Promise<void> {
    await this.dataSource.query(
      'DELETE FROM gateway.idempotency_keys WHERE scope = $1 AND key = $2 AND expires_at < now()',
      [scope, key],
    );
  }

  /** Locks an in-progress key whose holder's lock ran out (it died); false when none did. */
  async takeOver(scope: string, key: string, lockSeconds: number): Promise<boolean> {
    const taken = rowsOf(
      await this.dataSource.query(
        `UPDATE gateway.idempotency_keys SET locked_until = now() + make_interval(secs => $3)
        WHERE scope = $1 AND key = $2 AND state = 'in_progress' AND locked_until < now() RETURNING key`,
        [scope, key, lockSeconds],
      ),
    );
    return taken.length > 0;
  }

  async complete(scope: string, key: string, status: number, outcomeSealed: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE gateway.idempotency_keys SET state = 'completed', status = $3, outcome_sealed = $4 WHERE scope = $1 AND key = $2`,
      [scope, key, status, outcomeSealed],
    );
  }

  /** Deletes the key while it is in progress, so a retry can claim it. */
  async release(scope: string, key: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM gateway.idempotency_keys WHERE scope = $1 AND key = $2 AND state = 'in_progress'`,
      [scope, key],
    );
  }

  /** Keys past their retention. */
  async purgeExpired(): Promise<number> {
    const rows = rowsOf(
      await this.dataSource.query(
        'DELETE FROM gateway.idempotency_keys WHERE expires_at < now() RETURNING key',
      ),
    );
    return rows.length;
  }
}
