import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Pool } from 'undici';

/** Most pools kept; the least recently used one is closed beyond it (its sockets end). */
const MAX_POOLS = 1000;

/**
 * Keep-alive connection pools (undici), one per endpoint origin and the address that origin was
 * checked to resolve to: a pool connects to that address and nowhere else (DNS pinned), while
 * the Host header, TLS SNI and certificate check keep the endpoint's own name. A name that
 * moves to another address gets a pool of its own, checked again by the caller first.
 */
export class OriginPools {
  private readonly pools = new Map<string, Pool>();

  constructor(
    private readonly limit = MAX_POOLS,
    /** Trusted certificate authorities instead of Node's (tests with their own CA). */
    private readonly ca?: string,
  ) {}

  /** The pool for `origin` (`https://host:port`) pinned to `address` (`host` itself: not pinned). */
  get(origin: string, host: string, address: string, connectTimeoutMs: number): Pool {
    const key = `${origin} ${address}`;
    const found = this.pools.get(key);
    if (found) {
      // Most recently used last, so the first entry is the one to let go.
      this.pools.delete(key);
      this.pools.set(key, found);
      return found;
    }
    const pool = new Pool(origin, {
      connect: {
        timeout: connectTimeoutMs,
        ...(this.ca ? { ca: this.ca } : {}),
        // Unchecked (private addresses allowed): the name is resolved as usual.
        ...(isIP(host) || address === host ? {} : { lookup: pinnedLookup(address) }),
      },
    });
    this.pools.set(key, pool);
    if (this.pools.size > this.limit) {
      const [oldestKey, oldest] = this.pools.entries().next().value as [string, Pool];
      this.pools.delete(oldestKey);
      // Requests in flight on it finish; then its sockets close.
      void oldest.close().catch(() => undefined);
    }
    return pool;
  }

  get size(): number {
    return this.pools.size;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => undefined)));
  }
}

/** A DNS lookup that answers `address` whatever it is asked. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address) || 4;
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (err: null, addresses: LookupAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
