import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { SealedBox } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { REALTIME_CONFIG } from '../config/realtime.config';
import type { RealtimeConfig } from '../config/realtime.config';

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
  private readonly reads: SqlRunner;
  private readonly box: SealedBox;

  constructor(
    @Inject(REALTIME_CONFIG) config: RealtimeConfig,
    @InjectDataSource('realtime') dataSource: DataSource,
  ) {
    this.reads = poolRunner(dataSource);
    this.box = new SealedBox(config.ENCRYPTION_KEY);
  }

  /** The key if it exists, is not revoked and its app is active; `appId` narrows it to one app. */
  async active(keyId: string, appId?: string): Promise<ActiveKey | undefined> {
    if (!/^rak_[0-9a-z]{26}$/.test(keyId)) return undefined;
    const [row] = rowsOf<{
      id: string;
      app_id: string;
      workspace_id: string;
      secret_sealed: string;
      connection_counting: boolean;
    }>(
      await this.reads.query(
        `SELECT k.id, k.app_id, k.workspace_id, k.secret_sealed, a.connection_counting
         FROM realtime.app_keys k JOIN realtime.apps a ON a.id = k.app_id
         WHERE k.id = $1 AND k.revoked_at IS NULL AND a.status = 'active'
           AND ($2::text IS NULL OR k.app_id = $2)`,
        [keyId, appId ?? null],
      ),
    );
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
  async appInWorkspace(appId: string, workspaceId: string): Promise<boolean> {
    const rows = rowsOf<{ id: string }>(
      await this.reads.query('SELECT id FROM realtime.apps WHERE id = $1 AND workspace_id = $2', [
        appId,
        workspaceId,
      ]),
    );
    return rows.length > 0;
  }
}
