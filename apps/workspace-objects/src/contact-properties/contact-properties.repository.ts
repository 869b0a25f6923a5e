import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactPropertyType } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { PropertyCatalog } from '../contacts/contact-input';

const PROPERTY_COLUMNS =
  'id, workspace_id, key, type, fallback_value, archived, created_at, updated_at';

export interface PropertyRow {
  id: string;
  workspace_id: string;
  key: string;
  type: ContactPropertyType;
  fallback_value: unknown;
  archived: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Named queries over contact properties; every one is scoped by workspace. */
@Injectable()
export class ContactPropertiesRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('workspace_objects') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** Every property of the workspace by key, archived ones included (marked). */
  async catalog(workspaceId: string, runner: SqlRunner = this.reads): Promise<PropertyCatalog> {
    const rows = rowsOf<Pick<PropertyRow, 'key' | 'type' | 'archived'>>(
      await runner.query(
        'SELECT key, type, archived FROM workspace_objects.contact_properties WHERE workspace_id = $1',
        [workspaceId],
      ),
    );
    return new Map(rows.map((row) => [row.key, { type: row.type, archived: row.archived }]));
  }

  list(
    workspaceId: string,
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<PropertyRow>> {
    return paginate<PropertyRow>(
      this.reads,
      {
        from: 'workspace_objects.contact_properties',
        select: PROPERTY_COLUMNS,
        where: { sql: 'workspace_id = $1', params: [workspaceId] },
        filters: { workspaceId },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
    lock = false,
  ): Promise<PropertyRow | undefined> {
    const rows = rowsOf<PropertyRow>(
      await runner.query(
        `SELECT ${PROPERTY_COLUMNS} FROM workspace_objects.contact_properties
         WHERE workspace_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /**
   * Inserts the property unless the key is taken or the workspace holds `limit` already (the
   * count and the insert under one advisory lock per workspace): undefined and the reason.
   */
  async insert(
    runner: SqlRunner,
    row: Pick<PropertyRow, 'id' | 'workspace_id' | 'key' | 'type' | 'fallback_value'>,
    limit: number,
  ): Promise<PropertyRow | 'key_taken' | 'limit'> {
    await runner.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('contact_properties ' || $1, 0))`,
      [row.workspace_id],
    );
    const [state] = rowsOf<{ count: string; taken: boolean }>(
      await runner.query(
        `SELECT count(*) AS count, bool_or(key = $2) AS taken
         FROM workspace_objects.contact_properties WHERE workspace_id = $1`,
        [row.workspace_id, row.key],
      ),
    );
    if (state.taken) return 'key_taken';
    if (Number(state.count) >= limit) return 'limit';
    const rows = rowsOf<PropertyRow>(
      await runner.query(
        `INSERT INTO workspace_objects.contact_properties (id, workspace_id, key, type, fallback_value)
         VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING ${PROPERTY_COLUMNS}`,
        [row.id, row.workspace_id, row.key, row.type, jsonOrNull(row.fallback_value)],
      ),
    );
    return rows[0];
  }

  async update(
    runner: SqlRunner,
    workspaceId: string,
    id: string,
    changes: { fallback_value?: unknown; archived?: boolean },
  ): Promise<PropertyRow | undefined> {
    const rows = rowsOf<PropertyRow>(
      await runner.query(
        `UPDATE workspace_objects.contact_properties SET
           fallback_value = CASE WHEN $3 THEN $4::jsonb ELSE fallback_value END,
           archived = COALESCE($5, archived),
           updated_at = clock_timestamp()
         WHERE workspace_id = $1 AND id = $2 RETURNING ${PROPERTY_COLUMNS}`,
        [
          workspaceId,
          id,
          'fallback_value' in changes,
          jsonOrNull(changes.fallback_value),
          changes.archived ?? null,
        ],
      ),
    );
    return rows[0];
  }
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
