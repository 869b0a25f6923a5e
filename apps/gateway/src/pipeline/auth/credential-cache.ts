import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/gateway.config';
import type { GatewayConfig } from '../../config/gateway.config';
import type { Caller } from './caller';

const MAX_ENTRIES = 10_000;

/**
 * Verified credentials for a short while, keyed by the presented secret: it lives only in this
 * process's memory, as the request header carrying it does, and hashing it per request would
 * cost more than the cache saves. Failures are not cached, so a new key works at once.
 */
@Injectable()
export class CredentialCache {
  private readonly entries = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** The cached caller, or the promise of verifying it: no promise at all on a cache hit. */
  remember(key: string, verify: () => Promise<Caller>): Caller | Promise<Caller> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.caller;
    return this.verifyAndKeep(key, verify);
  }

  private async verifyAndKeep(key: string, verify: () => Promise<Caller>): Promise<Caller> {
    const caller = await verify();
    if (this.config.AUTH_CACHE_TTL_MS > 0) {
      if (this.entries.size >= MAX_ENTRIES)
        this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { caller, expiresAt: Date.now() + this.config.AUTH_CACHE_TTL_MS });
    }
    return caller;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
