import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

/** An active key with its app's setting, as the data plane reads it. */
export interface ActiveKeyRow {
  id: string;
  app_id: string;
  workspace_id: string;
  secret_sealed: string;
  connection_counting: boolean;
}

/** Named queries of the data plane over realtime.app_keys and realtime.apps. */
@Injectable()
export class ClientKeysRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('realtime') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** The key if it exists, is not revoked and its app is active. */
  async findActive(keyId: string): Promise<ActiveKeyRow | undefined> {
    const [row] = rowsOf<ActiveKeyRow>(
      await this.reads.query(
        `SELECT k.id, k.app_id, k.workspace_id, k.secret_sealed, a.connection_counting
         FROM realtime.app_keys k JOIN realtime.apps a ON a.id = k.app_id
         WHERE k.id = $1 AND k.revoked_at IS NULL AND a.status = 'active'`,
        [keyId],
      ),
    );
    return row;
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
