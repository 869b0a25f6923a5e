import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@switchboard/platform';
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
 *
 * An entry used in the second half of its life is verified again in the background while it
 * keeps answering, so a credential in steady use never makes a request wait for the database.
 * The time to live still bounds what an entry answers: a re-verification that finds the
 * credential gone drops the entry at once, and one that fails otherwise (the database down)
 * leaves it to expire without trying again: the request after that verifies, and reports.
 */
@Injectable()
export class CredentialCache {
  private readonly entries = new Map<
    string,
    { caller: Caller; refreshAt: number; expiresAt: number }
  >();
  private readonly verifying = new Map<string, Promise<Caller>>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** The cached caller, or the promise of verifying it: no promise at all on a cache hit. */
  remember(key: string, verify: () => Promise<Caller>): Caller | Promise<Caller> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) {
      if (hit.refreshAt <= now && !this.verifying.has(key))
        this.verifyInto(key, verify).catch(() => undefined);
      return hit.caller;
    }
    return this.verifying.get(key) ?? this.verifyInto(key, verify);
  }

  private verifyInto(key: string, verify: () => Promise<Caller>): Promise<Caller> {
    // The callbacks run after `verification` is assigned and registered.
    const verification: Promise<Caller> = verify()
      .then(
        (caller) => {
          if (this.verifying.get(key) === verification) this.keep(key, caller);
          return caller;
        },
        (err: unknown) => {
          if (this.verifying.get(key) === verification) {
            // The credential was judged (unknown, revoked, ended): nothing may answer for it.
            if (err instanceof AppError) this.entries.delete(key);
            else this.holdRefresh(key);
          }
          throw err;
        },
      )
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

  /** No more background verifications of the entry: it answers until it expires. */
  private holdRefresh(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.refreshAt = entry.expiresAt;
  }

  private keep(key: string, caller: Caller): void {
    if (this.config.AUTH_CACHE_TTL_MS <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES)
      this.entries.delete(this.entries.keys().next().value as string);
    const now = Date.now();
    this.entries.set(key, {
      caller,
      refreshAt: now + this.config.AUTH_CACHE_TTL_MS / 2,
      expiresAt: now + this.config.AUTH_CACHE_TTL_MS,
    });
  }
}
