import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AudienceRef, ListContactsRequest } from '@switchboard/contracts';
import { escapeLike, paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { Identifier } from './contact-input';

export const CONTACT_COLUMNS =
  'id, workspace_id, email, phone_number, external_id, first_name, last_name, data, created_at, updated_at';

export interface ContactRow {
  id: string;
  workspace_id: string;
  email: string | null;
  phone_number: string | null;
  external_id: string | null;
  first_name: string | null;
  last_name: string | null;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** A contact as written: every column but the timestamps. */
export type ContactWrite = Omit<ContactRow, 'created_at' | 'updated_at'>;

/** Advisory locks per workspace that identifiers hash into (see `lockIdentifiers`). */
const IDENTIFIER_LOCK_BUCKETS = 256;

const RECORDSET = `x(id text, workspace_id text, email text, phone_number text, external_id text,
  first_name text, last_name text, data jsonb)`;

/** Named queries over contacts; every one is scoped by workspace. */
@Injectable()
export class ContactsRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('workspace_objects') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /**
   * Serializes every writer of these identifiers until the transaction ends: a matched-or-created
   * decision cannot be raced by another request creating the same address. Identifiers fall into
   * IDENTIFIER_LOCK_BUCKETS advisory locks per workspace, taken in one order (no deadlock), so a
   * batch of 1,000 contacts holds at most that many locks, far inside PostgreSQL's lock table.
   */
  async lockIdentifiers(
    runner: SqlRunner,
    workspaceId: string,
    identifiers: Array<[Identifier, string]>,
  ): Promise<void> {
    if (identifiers.length === 0) return;
    await runner.query(
      `SELECT count(pg_advisory_xact_lock(h)) FROM (
         SELECT DISTINCT hashtextextended($1 || ' ' || (abs(hashtextextended(k, 0)) % $3)::text, 0) AS h
         FROM unnest($2::text[]) k ORDER BY 1
       ) s`,
      [
        workspaceId,
        identifiers.map(([kind, value]) => `${kind} ${value}`),
        IDENTIFIER_LOCK_BUCKETS,
      ],
    );
  }

  /** Contacts holding any of these identifiers, locked for the transaction's update. */
  async findByIdentifiers(
    runner: SqlRunner,
    workspaceId: string,
    identifiers: Array<[Identifier, string]>,
  ): Promise<ContactRow[]> {
    const values = (kind: Identifier) =>
      identifiers.filter(([key]) => key === kind).map(([, value]) => value);
    return rowsOf<ContactRow>(
      await runner.query(
        `SELECT ${CONTACT_COLUMNS} FROM workspace_objects.contacts
         WHERE workspace_id = $1
           AND (email = ANY($2::text[]) OR phone_number = ANY($3::text[]) OR external_id = ANY($4::text[]))
         FOR UPDATE`,
        [workspaceId, values('email'), values('phone_number'), values('external_id')],
      ),
    );
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
    lock = false,
  ): Promise<ContactRow | undefined> {
    const rows = rowsOf<ContactRow>(
      await runner.query(
        `SELECT ${CONTACT_COLUMNS} FROM workspace_objects.contacts
         WHERE workspace_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /** Inserts every contact in one statement. */
  async insert(runner: SqlRunner, rows: ContactWrite[]): Promise<ContactRow[]> {
    if (rows.length === 0) return [];
    return rowsOf<ContactRow>(
      await runner.query(
        `INSERT INTO workspace_objects.contacts
           (id, workspace_id, email, phone_number, external_id, first_name, last_name, data)
         SELECT id, workspace_id, email, phone_number, external_id, first_name, last_name, data
         FROM jsonb_to_recordset($1::jsonb) AS ${RECORDSET}
         RETURNING ${CONTACT_COLUMNS}`,
        [JSON.stringify(rows)],
      ),
    );
  }

  /** Writes every contact's new state in one statement. */
  /**
   * Parks the identifiers `rows` are about to change on values no contact can hold (`~` and the
   * contact's id), so an identifier that moves between contacts of one batch, or two that swap,
   * never meet their old holder in the unique indexes, which are checked row by row.
   */
  async releaseIdentifiers(runner: SqlRunner, rows: ContactWrite[]): Promise<void> {
    if (rows.length === 0) return;
    const parked = (column: string) =>
      `CASE WHEN c.${column} IS NOT NULL AND c.${column} IS DISTINCT FROM x.${column}
         THEN '~' || c.id ELSE c.${column} END`;
    await runner.query(
      `UPDATE workspace_objects.contacts c SET email = ${parked('email')},
         phone_number = ${parked('phone_number')}, external_id = ${parked('external_id')}
       FROM jsonb_to_recordset($1::jsonb) AS ${RECORDSET}
       WHERE c.id = x.id AND c.workspace_id = x.workspace_id`,
      [JSON.stringify(rows)],
    );
  }

  async update(runner: SqlRunner, rows: ContactWrite[]): Promise<ContactRow[]> {
    if (rows.length === 0) return [];
    return rowsOf<ContactRow>(
      await runner.query(
        `UPDATE workspace_objects.contacts c SET email = x.email, phone_number = x.phone_number,
           external_id = x.external_id, first_name = x.first_name, last_name = x.last_name,
           data = x.data, updated_at = clock_timestamp()
         FROM jsonb_to_recordset($1::jsonb) AS ${RECORDSET}
         WHERE c.id = x.id AND c.workspace_id = x.workspace_id
         RETURNING ${CONTACT_COLUMNS.split(', ')
           .map((column) => `c.${column}`)
           .join(', ')}`,
        [JSON.stringify(rows)],
      ),
    );
  }

  async delete(runner: SqlRunner, workspaceId: string, id: string): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(
        'DELETE FROM workspace_objects.contacts WHERE workspace_id = $1 AND id = $2 RETURNING id',
        [workspaceId, id],
      ),
    );
    return rows.length > 0;
  }

  list(
    workspaceId: string,
    request: ListContactsRequest,
    cursors: CursorCodec,
  ): Promise<Page<ContactRow>> {
    const params: unknown[] = [workspaceId];
    const where = ['workspace_id = $1'];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (request.email !== undefined) where.push(`email = ${param(request.email)}`);
    if (request.phone_number !== undefined)
      where.push(`phone_number = ANY(${param(request.phone_number)}::text[])`);
    if (request.external_id !== undefined)
      where.push(`external_id = ${param(request.external_id)}`);
    if (request.identifier) where.push(`${request.identifier} IS NOT NULL`);
    if (request.q !== undefined) {
      const pattern = param(`%${escapeLike(request.q.toLowerCase())}%`);
      const digits = request.q.replace(/\D/g, '');
      where.push(
        `(email LIKE ${pattern} OR lower(first_name) LIKE ${pattern} OR lower(last_name) LIKE ${pattern}` +
          (digits ? ` OR phone_number LIKE ${param(`%${digits}%`)}` : '') +
          ')',
      );
    }
    return paginate<ContactRow>(
      this.reads,
      {
        from: 'workspace_objects.contacts',
        select: CONTACT_COLUMNS,
        where: { sql: where.join(' AND '), params },
        filters: {
          workspaceId,
          email: request.email,
          phone_number: request.phone_number,
          external_id: request.external_id,
          identifier: request.identifier,
          q: request.q,
        },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  /** Each contact's audiences, most recently joined first: one query for a page. */
  async audiencesOf(contactIds: string[]): Promise<Map<string, AudienceRef[]>> {
    const found = new Map<string, AudienceRef[]>(contactIds.map((id) => [id, []]));
    if (contactIds.length === 0) return found;
    const rows = rowsOf<{ contact_id: string; id: string; name: string }>(
      await this.reads.query(
        `SELECT m.contact_id, a.id, a.name
         FROM workspace_objects.audience_members m
         JOIN workspace_objects.audiences a ON a.id = m.audience_id
         WHERE m.contact_id = ANY($1::text[])
         ORDER BY m.joined_at DESC, a.id DESC`,
        [contactIds],
      ),
    );
    for (const row of rows) found.get(row.contact_id)?.push({ id: row.id, name: row.name });
    return found;
  }
}
