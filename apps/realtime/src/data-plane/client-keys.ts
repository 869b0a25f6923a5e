import { Injectable } from '@nestjs/common';
import { SealedBox } from '@switchboard/platform';
import { ClientKeysRepository } from './client-keys.repository';

/** An active app key, as a connection or a REST data-plane call uses it. */
export interface ActiveKey {
  keyId: string;
  appId: string;
  workspaceId: string;
  connectionCounting: boolean;
  secret: string;
}

/**
 * Looks keys up in the database on every use, never from a cache: a revoked key must refuse the
 * next connection at once (the connections it opened are closed by the revocation itself).
 */
@Injectable()
export class ClientKeys {
  constructor(
    private readonly repository: ClientKeysRepository,
    private readonly box: SealedBox,
  ) {}

  /** The key if it exists, is not revoked and its app is active; `appId` narrows it to one app. */
  async active(keyId: string, appId?: string): Promise<ActiveKey | undefined> {
    if (!/^rak_[0-9a-z]{26}$/.test(keyId)) return undefined;
    const row = await this.repository.findActive(keyId, appId);
    if (!row) return undefined;
    return {
      keyId: row.id,
      appId: row.app_id,
      workspaceId: row.workspace_id,
      connectionCounting: row.connection_counting,
      secret: this.box.open(row.secret_sealed),
    };
  }

  /** Whether the app (in any status) belongs to the workspace. */
  appInWorkspace(appId: string, workspaceId: string): Promise<boolean> {
    return this.repository.appInWorkspace(appId, workspaceId);
  }
}
