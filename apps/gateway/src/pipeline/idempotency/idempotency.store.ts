import { Inject, Injectable } from '@nestjs/common';
import { SealedBox } from '@switchboard/platform';
import { GATEWAY_CONFIG } from '../../config/gateway.config';
import type { GatewayConfig } from '../../config/gateway.config';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** How long a request holds its key before another gateway may take the key over. */
const IDEMPOTENCY_LOCK_SECONDS = 30;

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
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly keys: IdempotencyKeysRepository,
    private readonly box: SealedBox,
  ) {}

  /** Claims the key for this request, or says why not: replay, another request, or in flight. */
  async claim(scope: string, key: string, fingerprint: string): Promise<Claim> {
    const claimed = await this.keys.claim(
      scope,
      key,
      fingerprint,
      IDEMPOTENCY_LOCK_SECONDS,
      this.config.IDEMPOTENCY_TTL_HOURS,
    );
    if (claimed) return { kind: 'claimed' };
    const row = await this.keys.find(scope, key);
    if (!row) return this.claim(scope, key, fingerprint);
    if (row.expired) {
      // Past its retention the key is free again, whether or not the purge has run yet.
      await this.keys.deleteIfExpired(scope, key);
      return this.claim(scope, key, fingerprint);
    }
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.state === 'completed' && row.outcome_sealed)
      return {
        kind: 'replay',
        outcome: JSON.parse(this.box.open(row.outcome_sealed)) as StoredOutcome,
      };
    // A holder that died leaves its lock to expire; the next retry takes the key over.
    return (await this.keys.takeOver(scope, key, IDEMPOTENCY_LOCK_SECONDS))
      ? { kind: 'claimed' }
      : { kind: 'in_progress', retryAfterSeconds: row.wait };
  }

  async complete(scope: string, key: string, outcome: StoredOutcome): Promise<void> {
    await this.keys.complete(scope, key, outcome.status, this.box.seal(JSON.stringify(outcome)));
  }

  /** Outcomes that are not kept (5xx, 429, 503) release the key so a retry can succeed. */
  async release(scope: string, key: string): Promise<void> {
    await this.keys.release(scope, key);
  }
}
