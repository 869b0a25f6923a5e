import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ListEmailBroadcastsRequest } from '@switchboard/contracts';
import { escapeLike, paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { BROADCAST_COLUMNS } from './broadcast.mapper';
import type { BroadcastRow } from './broadcast.mapper';
import type { BroadcastChanges } from './broadcast-request.normaliser';

/**
 * A broadcast that still needs its template: `scheduled` or `accepted`, which have not pinned
 * their version yet. A `sending` one keeps a snapshot of the version it pinned, except one that
 * started before snapshots existed: until prepared, a restart reads its version again.
 */
const NEEDS_TEMPLATE = `(status IN ('scheduled', 'accepted')
  OR (status = 'sending' AND prepared_at IS NULL AND template_snapshot IS NULL))`;

/** Named queries over email.broadcasts; every one scoped by workspace. */
@Injectable()
export class BroadcastsRepository {
  readonly reads: SqlRunner;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
    lock = false,
  ): Promise<BroadcastRow | undefined> {
    return rowsOf<BroadcastRow>(
      await runner.query(
        `SELECT ${BROADCAST_COLUMNS} FROM email.broadcasts WHERE workspace_id = $1 AND id = $2
         ${lock ? 'FOR UPDATE' : ''}`,
        [workspaceId, id],
      ),
    )[0];
  }

  /** A worker's read, by id alone (the job names the broadcast), locked for its transaction. */
  async lock(runner: SqlRunner, id: string): Promise<BroadcastRow | undefined> {
    return rowsOf<BroadcastRow>(
      await runner.query(
        `SELECT ${BROADCAST_COLUMNS} FROM email.broadcasts WHERE id = $1 FOR UPDATE`,
        [id],
      ),
    )[0];
  }

  /** Whether a job of `queue` for the broadcast waits or runs (a lost one's lease runs out). */
  async hasJob(runner: SqlRunner, queue: string, id: string): Promise<boolean> {
    const [row] = rowsOf<{ found: boolean }>(
      await runner.query(
        `SELECT EXISTS (SELECT 1 FROM email.jobs WHERE queue = $1
           AND payload->>'broadcast_id' = $2) AS found`,
        [queue, id],
      ),
    );
    return row?.found === true;
  }

  /** A worker's read, by id alone (the job names the broadcast). */
  async byId(id: string): Promise<BroadcastRow | undefined> {
    return rowsOf<BroadcastRow>(
      await this.reads.query(`SELECT ${BROADCAST_COLUMNS} FROM email.broadcasts WHERE id = $1`, [
        id,
      ]),
    )[0];
  }

  /** A page committed: where the next one starts, the recipients it added, whether it was the last. */
  async advance(
    runner: SqlRunner,
    id: string,
    page: { after: string | null; written: number; last: boolean },
  ): Promise<number> {
    const rows = rowsOf<{ recipient_count: number }>(
      await runner.query(
        `UPDATE email.broadcasts SET prepared_after = coalesce($2, prepared_after),
           recipient_count = recipient_count + $3,
           prepared_at = CASE WHEN $4 THEN now() ELSE prepared_at END
         WHERE id = $1 RETURNING recipient_count`,
        [id, page.after, page.written, page.last],
      ),
    );
    return rows[0].recipient_count;
  }

  async insert(runner: SqlRunner, row: BroadcastRow): Promise<void> {
    await runner.query(
      `INSERT INTO email.broadcasts (${BROADCAST_COLUMNS})
       SELECT ${BROADCAST_COLUMNS} FROM jsonb_populate_record(null::email.broadcasts, $1::jsonb)`,
      [JSON.stringify(row)],
    );
  }

  /** Writes the fields a create or update set; the others keep their value. */
  async apply(runner: SqlRunner, id: string, changes: BroadcastChanges): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown, cast = '') => {
      params.push(value);
      sets.push(`${column} = $${params.length}${cast}`);
    };
    if (changes.from) {
      set('from_email', changes.from.email);
      set('from_name', changes.from.name ?? null);
    }
    if (changes.audience_id !== undefined) set('audience_id', changes.audience_id);
    if (changes.template_id !== undefined) {
      set('template_id', changes.template_id);
      // A template (even the same one again) releases the pinned version.
      sets.push('template_version_id = NULL');
    }
    if (changes.reply_to) set('reply_to', JSON.stringify(changes.reply_to), '::jsonb');
    if (changes.headers) set('headers', JSON.stringify(changes.headers), '::jsonb');
    if (changes.tags) set('tags', JSON.stringify(changes.tags), '::jsonb');
    if (changes.metadata) set('metadata', JSON.stringify(changes.metadata), '::jsonb');
    if (changes.track_opens !== undefined) set('track_opens', changes.track_opens);
    if (changes.track_clicks !== undefined) set('track_clicks', changes.track_clicks);
    if (changes.ip_pool_id !== undefined) set('ip_pool_id', changes.ip_pool_id);
    if (changes.category) set('category', changes.category);
    if (sets.length === 0) return;
    await runner.query(`UPDATE email.broadcasts SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  async setState(
    runner: SqlRunner,
    id: string,
    state: Partial<
      Pick<
        BroadcastRow,
        | 'status'
        | 'scheduled_at'
        | 'started_at'
        | 'sent_at'
        | 'canceled_at'
        | 'failure_reason'
        | 'failure_detail'
        | 'template_version_id'
        | 'snapshot_at'
        | 'prepared_at'
      > & { template_snapshot: object | null }
    >,
  ): Promise<void> {
    const entries = Object.entries(state);
    await runner.query(
      `UPDATE email.broadcasts SET ${entries.map(([column], index) => `${column} = $${index + 2}`).join(', ')}
       WHERE id = $1`,
      [id, ...entries.map(([, value]) => value)],
    );
  }

  /** The template version a sending broadcast pinned, as it kept it; null before it pinned one. */
  async templateSnapshot(workspaceId: string, id: string): Promise<object | null> {
    const [row] = rowsOf<{ template_snapshot: object | null }>(
      await this.reads.query(
        'SELECT template_snapshot FROM email.broadcasts WHERE workspace_id = $1 AND id = $2',
        [workspaceId, id],
      ),
    );
    return row?.template_snapshot ?? null;
  }

  async delete(runner: SqlRunner, id: string): Promise<void> {
    await runner.query('DELETE FROM email.broadcasts WHERE id = $1', [id]);
  }

  /** Newest first; `status` any of, `tag` as `name` or `name:value`, `q` over tags and template name. */
  list(
    workspaceId: string,
    request: ListEmailBroadcastsRequest,
    cursors: CursorCodec,
  ): Promise<Page<BroadcastRow>> {
    const params: unknown[] = [workspaceId];
    const where = ['workspace_id = $1'];
    const add = (sql: (p: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (request.status?.length) add((p) => `status = ANY(${p}::text[])`, request.status);
    if (request.audience_id) add((p) => `audience_id = ${p}`, request.audience_id);
    if (request.tag) {
      const [name, ...rest] = request.tag.split(':');
      add(
        (p) => `tags @> ${p}::jsonb`,
        JSON.stringify([rest.length ? { name, value: rest.join(':') } : { name }]),
      );
    }
    if (request.q)
      add(
        (p) =>
          `(EXISTS (SELECT 1 FROM jsonb_array_elements(tags) t
                    WHERE lower(t->>'name') LIKE ${p} OR lower(t->>'value') LIKE ${p})
            OR EXISTS (SELECT 1 FROM email.templates t WHERE t.workspace_id = $1
                    AND t.id = template_id AND lower(t.name) LIKE ${p}))`,
        `%${escapeLike(request.q.toLowerCase())}%`,
      );
    if (request.created_after) add((p) => `created_at >= ${p}::timestamptz`, request.created_after);
    if (request.created_before)
      add((p) => `created_at < ${p}::timestamptz`, request.created_before);
    const { limit, starting_after, ending_before } = request;
    return paginate<BroadcastRow>(
      this.reads,
      {
        from: 'email.broadcasts',
        select: BROADCAST_COLUMNS,
        where: { sql: where.join(' AND '), params },
        filters: {
          workspaceId,
          ...request,
          limit: null,
          starting_after: null,
          ending_before: null,
        },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      { limit, starting_after, ending_before },
      cursors,
    );
  }

  /** The broadcasts that block deleting a template (`NEEDS_TEMPLATE`), newest first. */
  listBlockingTemplate(
    workspaceId: string,
    templateId: string,
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<BroadcastRow>> {
    return paginate<BroadcastRow>(
      this.reads,
      {
        from: 'email.broadcasts',
        select: BROADCAST_COLUMNS,
        where: {
          sql: `workspace_id = $1 AND template_id = $2 AND ${NEEDS_TEMPLATE}`,
          params: [workspaceId, templateId],
        },
        filters: { workspaceId, templateId },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  /**
   * The id of the workspace's template named by id or slug (the templates area's table, read
   * for the templates' broadcasts list); undefined when there is none.
   */
  async templateIdOf(workspaceId: string, ref: string): Promise<string | undefined> {
    const rows = rowsOf<{ id: string }>(
      await this.reads.query(
        `SELECT id FROM email.templates WHERE workspace_id = $1 AND (id = $2 OR slug = $2)`,
        [workspaceId, ref],
      ),
    );
    return rows[0]?.id;
  }

  /** Whether a broadcast still needs the template (`NEEDS_TEMPLATE`): its delete is then 409. */
  async templateInUse(runner: SqlRunner, workspaceId: string, templateId: string) {
    const rows = rowsOf(
      await runner.query(
        `SELECT 1 FROM email.broadcasts WHERE workspace_id = $1 AND template_id = $2
           AND ${NEEDS_TEMPLATE} LIMIT 1 FOR SHARE`,
        [workspaceId, templateId],
      ),
    );
    return rows.length > 0;
  }
}
