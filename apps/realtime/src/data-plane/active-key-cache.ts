/** An active app key, as a connection or a REST data-plane call uses it. */
export interface ActiveKey {
  keyId: string;
  appId: string;
  workspaceId: string;
  connectionCounting: boolean;
  secret: string;
}

/** How long a key read from the database answers without reading it again. */
export const ACTIVE_KEY_TTL_MS = 5_000;
const MAX_KEYS = 10_000;

/**
 * Active keys as last read, so a publish does not wait for PostgreSQL (that round trip was the
 * largest part of the publish path under load, ADR 19). What can end a key's answer evicts it
 * on every realtime process through the cluster's commands: a revocation, an app deleted or
 * changed. The time to live bounds what a process that missed such a command can serve.
 *
 * A read that was under way while an eviction happened may have seen the row before the change:
 * it is not kept (`fill` compares the generation taken before the read), and `ClientKeys` reads
 * again. A key used in the second half of its life is `due` for a read in the background, so
 * one in steady use never makes a publish wait for the database.
 */
export class ActiveKeyCache {
  private readonly keys = new Map<string, { key: ActiveKey; refreshAt: number; until: number }>();
  private evictions = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Changes whenever something is evicted: taken before a read, handed to `fill` after it. */
  get generation(): number {
    return this.evictions;
  }

  get(keyId: string): ActiveKey | undefined {
    const entry = this.keys.get(keyId);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.key;
    this.keys.delete(keyId);
    return undefined;
  }

  fill(key: ActiveKey, generation: number): void {
    if (generation !== this.evictions) return;
    this.keys.delete(key.keyId);
    if (this.keys.size >= MAX_KEYS) this.keys.delete(this.keys.keys().next().value as string);
    const now = this.now();
    this.keys.set(key.keyId, {
      key,
      refreshAt: now + ACTIVE_KEY_TTL_MS / 2,
      until: now + ACTIVE_KEY_TTL_MS,
    });
  }

  /** Whether the key, fresh, is past half its time to live. */
  due(keyId: string): boolean {
    const entry = this.keys.get(keyId);
    const now = this.now();
    return entry !== undefined && entry.refreshAt <= now && entry.until > now;
  }

  /** No more background reads of the key: it answers until it expires. */
  holdRefresh(keyId: string): void {
    const entry = this.keys.get(keyId);
    if (entry) entry.refreshAt = entry.until;
  }

  evictKey(keyId: string): void {
    this.evictions += 1;
    this.keys.delete(keyId);
  }

  evictApp(appId: string): void {
    this.evictions += 1;
    for (const [keyId, entry] of this.keys) if (entry.key.appId === appId) this.keys.delete(keyId);
  }

  clear(): void {
    this.evictions += 1;
    this.keys.clear();
  }
}
