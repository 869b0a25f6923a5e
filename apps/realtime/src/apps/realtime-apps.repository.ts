import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ListRealtimeAppsRequest } from '@switchboard/contracts';
import { escapeLike, paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { EntityManager } from 'typeorm';

export interface AppRow {
  id: string;
  workspace_id: string;
  app_id: string;
  name: string;
  region: string;
  status: 'active';
  connection_counting: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface KeyRow {
  id: string;
  app_id: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

const APP_COLUMNS =
  'id, workspace_id, app_id, name, region, status, connection_counting, created_at, updated_at';
const KEY_COLUMNS = 'id, app_id, created_at, revoked_at';

/** Named queries over realtime.apps and realtime.app_keys; every one is scoped by workspace. */
@Injectable()
export class RealtimeAppsRepository {
  /**
   * Reads outside a transaction go to the driver's pg Pool directly: one pool round trip per
   * query, without the TypeORM query runner each `DataSource.query` creates and releases.
   */
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('realtime') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** A page of the workspace's apps, filtered by a name substring, newest first or by name. */
  listApps(
    workspaceId: string,
    request: ListRealtimeAppsRequest,
    cursors: CursorCodec,
  ): Promise<Page<AppRow>> {
    const params: unknown[] = [workspaceId];
    let where = 'workspace_id = $1';
    if (request.name) {
      params.push(`%${escapeLike(request.name)}%`);
      where += ' AND name ILIKE $2';
    }
    return paginate<AppRow>(
      this.reads,
      {
        from: 'realtime.apps',
        select: APP_COLUMNS,
        where: { sql: where, params },
        filters: { workspaceId, name: request.name ?? null },
        sorts: {
          created_at: { column: 'created_at', type: 'timestamptz' },
          name: { column: 'name', type: 'text' },
        },
        defaultSort: 'created_at',
        defaultOrder: request.sort === 'name' ? 'asc' : 'desc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  async insertApp(
    manager: EntityManager,
    app: {
      id: string;
      workspaceId: string;
      name: string;
      region: string;
      connectionCounting: boolean;
    },
  ): Promise<AppRow> {
    const rows: AppRow[] = await manager.query(
      `INSERT INTO realtime.apps (id, workspace_id, name, region, connection_counting) VALUES ($1, $2, $3, $4, $5) RETURNING ${APP_COLUMNS}`,
      [app.id, app.workspaceId, app.name, app.region, app.connectionCounting],
    );
    return rows[0];
  }

  async insertKey(
    manager: EntityManager,
    key: { id: string; appId: string; workspaceId: string; secretSealed: string },
  ): Promise<KeyRow> {
    const rows: KeyRow[] = await manager.query(
      `INSERT INTO realtime.app_keys (id, app_id, workspace_id, secret_sealed) VALUES ($1, $2, $3, $4) RETURNING ${KEY_COLUMNS}`,
      [key.id, key.appId, key.workspaceId, key.secretSealed],
    );
    return rows[0];
  }

  async findApp(
    workspaceId: string,
    id: string,
    manager: EntityManager | SqlRunner = this.reads,
    lock = false,
  ): Promise<AppRow | undefined> {
    const rows = rowsOf<AppRow>(
      await manager.query(
        `SELECT ${APP_COLUMNS} FROM realtime.apps WHERE workspace_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  async updateApp(
    manager: EntityManager,
    workspaceId: string,
    id: string,
    patch: { name?: string; connectionCounting?: boolean },
  ): Promise<AppRow | undefined> {
    const rows = rowsOf<AppRow>(
      await manager.query(
        `UPDATE realtime.apps SET name = COALESCE($3, name), connection_counting = COALESCE($4, connection_counting), updated_at = clock_timestamp()
        WHERE workspace_id = $1 AND id = $2 RETURNING ${APP_COLUMNS}`,
        [workspaceId, id, patch.name ?? null, patch.connectionCounting ?? null],
      ),
    );
    return rows[0];
  }

  /** Deletes the app; its keys go with it (ON DELETE CASCADE). */
  async deleteApp(manager: EntityManager, workspaceId: string, id: string): Promise<boolean> {
    const rows = rowsOf(
      await manager.query(
        'DELETE FROM realtime.apps WHERE workspace_id = $1 AND id = $2 RETURNING id',
        [workspaceId, id],
      ),
    );
    return rows.length > 0;
  }

  async listKeys(workspaceId: string, appId: string, includeRevoked: boolean): Promise<KeyRow[]> {
    return rowsOf<KeyRow>(
      await this.reads.query(
        `SELECT ${KEY_COLUMNS} FROM realtime.app_keys WHERE workspace_id = $1 AND app_id = $2 ${includeRevoked ? '' : 'AND revoked_at IS NULL'} ORDER BY created_at, id`,
        [workspaceId, appId],
      ),
    );
  }

  async findKey(
    manager: EntityManager,
    workspaceId: string,
    appId: string,
    keyId: string,
  ): Promise<KeyRow | undefined> {
    const rows: KeyRow[] = await manager.query(
      `SELECT ${KEY_COLUMNS} FROM realtime.app_keys WHERE workspace_id = $1 AND app_id = $2 AND id = $3`,
      [workspaceId, appId, keyId],
    );
    return rows[0];
  }

  async countActiveKeys(manager: EntityManager, appId: string): Promise<number> {
    const rows: Array<{ count: string }> = await manager.query(
      'SELECT count(*) FROM realtime.app_keys WHERE app_id = $1 AND revoked_at IS NULL',
      [appId],
    );
    return Number(rows[0].count);
  }

  async revokeKey(manager: EntityManager, keyId: string): Promise<KeyRow> {
    const rows = rowsOf<KeyRow>(
      await manager.query(
        `UPDATE realtime.app_keys SET revoked_at = clock_timestamp() WHERE id = $1 RETURNING ${KEY_COLUMNS}`,
        [keyId],
      ),
    );
    return rows[0];
  }
}
