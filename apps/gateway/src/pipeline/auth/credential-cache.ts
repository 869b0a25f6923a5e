import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/gateway.config';
import type { GatewayConfig } from '../../config/gateway.config';
import type { Caller } from './caller';

const MAX_ENTRIES = 10_000;

/**
 * Verified credentials for a short while, keyed by the presented secret: it lives only in this
 * process's memory, as the request header carrying it does, and hashing it per request would
 * cost more than the cache saves. Failures are not cached, so a new key works at once.
 *
 * Requests that miss while the same secret is being verified share that verification: when an
 * entry expires under load, every request in flight with the key would otherwise read the
 * database at once (64 connections queued 45 deep on the pool, up to 97 ms, in bench:email).
 */
@Injectable()
export class CredentialCache {
  private readonly entries = new Map<string, { caller: Caller; expiresAt: number }>();
  private readonly verifying = new Map<string, Promise<Caller>>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** The cached caller, or the promise of verifying it: no promise at all on a cache hit. */
  remember(key: string, verify: () => Promise<Caller>): Caller | Promise<Caller> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.caller;
    const pending = this.verifying.get(key);
    if (pending) return pending;
    // The callbacks run after `verification` is assigned and registered.
    const verification: Promise<Caller> = verify()
      .then((caller) => {
        if (this.verifying.get(key) === verification) this.keep(key, caller);
        return caller;
      })
      .finally(() => {
        if (this.verifying.get(key) === verification) this.verifying.delete(key);
      });
    this.verifying.set(key, verification);
    return verification;
  }

  /** Also discards a verification under way: what it learnt predates the call. */
  forget(key: string): void {
    this.entries.delete(key);
    this.verifying.delete(key);
  }

  private keep(key: string, caller: Caller): void {
    if (this.config.AUTH_CACHE_TTL_MS <= 0) return;
    if (this.entries.size >= MAX_ENTRIES)
      this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { caller, expiresAt: Date.now() + this.config.AUTH_CACHE_TTL_MS });
  }
}
