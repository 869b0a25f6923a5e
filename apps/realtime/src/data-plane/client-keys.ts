import { Injectable } from '@nestjs/common';
import { SealedBox } from '@switchboard/platform';
import { ActiveKeyCache } from './active-key-cache';
import type { ActiveKey } from './active-key-cache';
import { ClientKeysRepository } from './client-keys.repository';

export type { ActiveKey } from './active-key-cache';

/** Reads of one key while evictions keep overtaking them (each is rare; several in a row are not). */
const MAX_READS = 3;

/**
 * Active keys for connections and REST data-plane calls: from the cache while fresh, otherwise
 * from the database. A revoked key refuses the next connection at once: the revocation evicts
 * it before it answers (and closes the connections the key opened).
 */
@Injectable()
export class ClientKeys {
  private readonly refreshing = new Set<string>();

  constructor(
    private readonly repository: ClientKeysRepository,
    private readonly box: SealedBox,
    private readonly cache: ActiveKeyCache,
  ) {}

  /** The key if it exists, is not revoked and its app is active; `appId` narrows it to one app. */
  async active(keyId: string, appId?: string): Promise<ActiveKey | undefined> {
    if (!/^rak_[0-9a-z]{26}$/.test(keyId)) return undefined;
    const cached = this.cache.get(keyId);
    if (cached && this.cache.due(keyId)) this.refresh(keyId);
    const key = cached ?? (await this.read(keyId));
    return key && (appId === undefined || key.appId === appId) ? key : undefined;
  }

  /**
   * Reads a key in use again while the cache answers for it. A key found gone is evicted at
   * once (the eviction makes reads of other keys under way read again, as any eviction does); a
   * failed read leaves the entry to expire without trying again, and the next miss reads (and
   * reports) again.
   */
  private refresh(keyId: string): void {
    if (this.refreshing.has(keyId)) return;
    this.refreshing.add(keyId);
    this.read(keyId)
      .then(
        (key) => key ?? this.cache.evictKey(keyId),
        () => this.cache.holdRefresh(keyId),
      )
      .finally(() => this.refreshing.delete(keyId));
  }

  /**
   * From the database. A read that an eviction overtook may have seen the row before the change
   * (a connection it let in would outlive the revocation's close), so it is made again.
   */
  private async read(keyId: string): Promise<ActiveKey | undefined> {
    for (let attempt = 1; ; attempt++) {
      const generation = this.cache.generation;
      const row = await this.repository.findActive(keyId);
      const key = row && {
        keyId: row.id,
        appId: row.app_id,
        workspaceId: row.workspace_id,
        connectionCounting: row.connection_counting,
        secret: this.box.open(row.secret_sealed),
      };
      if (generation === this.cache.generation || attempt === MAX_READS) {
        if (key) this.cache.fill(key, generation);
        return key;
      }
    }
  }

  /** Whether the app (in any status) belongs to the workspace. */
  appInWorkspace(appId: string, workspaceId: string): Promise<boolean> {
    return this.repository.appInWorkspace(appId, workspaceId);
  }
}
