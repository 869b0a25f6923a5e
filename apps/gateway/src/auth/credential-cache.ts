import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/gateway.config';
import type { GatewayConfig } from '../config/gateway.config';
import { hashSecret } from '../credentials/secrets';
import type { Caller } from './caller';

const MAX_ENTRIES = 10_000;

/**
 * Verified credentials for a short while, keyed by a hash of the secret (never the secret
 * itself). Failures are not cached, so a key created a moment ago works at once.
 */
@Injectable()
export class CredentialCache {
  private readonly entries = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  async remember(key: string, verify: () => Promise<Caller>): Promise<Caller> {
    const cacheKey = hashSecret(key).toString('base64');
    const hit = this.entries.get(cacheKey);
    if (hit && hit.expiresAt > Date.now()) return hit.caller;
    const caller = await verify();
    if (this.config.AUTH_CACHE_TTL_MS > 0) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(cacheKey, { caller, expiresAt: Date.now() + this.config.AUTH_CACHE_TTL_MS });
    }
    return caller;
  }

  forget(key: string): void {
    this.entries.delete(hashSecret(key).toString('base64'));
  }
}
