import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { SqlFilter } from '../../database/sql-filter';
import type { ConnectedNumber } from '../webhooks/meta-webhook';
import { NUMBER_FROM, NUMBER_SELECT } from './whatsapp-number.row';
import type { WhatsAppNumberRow } from './whatsapp-number.row';

/** A stored number event (`seq` orders events recorded in the same instant). */
export interface WhatsAppNumberEventRow {
  id: string;
  type: string;
  summary: string;
  metadata: Record<string, unknown>;
  created_at: Date | string;
}

/** An event to record about a number. */
export interface NewNumberEvent {
  id: string;
  workspaceId: string;
  numberId: string;
  type: string;
  summary: string;
  metadata: Record<string, unknown>;
}

/**
 * Named queries over sms_whatsapp.whatsapp_numbers and their events. Reads a workspace makes are
 * scoped by workspace; the lookups by Meta's phone number id are not, since Meta's ids are held
 * by one workspace at a time and that is how webhooks and connects find the holder.
 */
@Injectable()
export class WhatsAppNumbersRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** The number Meta's `metadata.phone_number_id` names, whichever workspace holds it. */
  async findConnectedByPhoneNumberId(
    phoneNumberId: string,
    runner: SqlRunner = this.reads,
  ): Promise<ConnectedNumber | undefined> {
    const rows = rowsOf<ConnectedNumber>(
      await runner.query(
        `SELECT id, workspace_id AS "workspaceId", business_account_id AS "businessAccountId",
           phone_number_id AS "phoneNumberId", phone_number AS "phoneNumber"
         FROM sms_whatsapp.whatsapp_numbers WHERE phone_number_id = $1`,
        [phoneNumberId],
      ),
    );
    return rows[0];
  }

  /**
   * The workspace's number a send names in `from`: its `wan_` id or its E.164 phone number (a
   * connected one first, should the workspace hold the same phone number twice).
   */
  async findSender(
    workspaceId: string,
    from: string,
    runner: SqlRunner = this.reads,
  ): Promise<WhatsAppNumberRow | undefined> {
    const column = from.startsWith('wan_') ? 'n.id' : 'n.phone_number';
    const rows = rowsOf<WhatsAppNumberRow>(
      await runner.query(
        `SELECT ${NUMBER_SELECT} FROM ${NUMBER_FROM}
         WHERE n.workspace_id = $1 AND ${column} = $2
         ORDER BY (n.status = 'connected') DESC, n.created_at DESC LIMIT 1`,
        [workspaceId, from],
      ),
    );
    return rows[0];
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
  ): Promise<WhatsAppNumberRow | undefined> {
    const rows = rowsOf<WhatsAppNumberRow>(
      await runner.query(
        `SELECT ${NUMBER_SELECT} FROM ${NUMBER_FROM} WHERE n.workspace_id = $1 AND n.id = $2`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /** The number holding Meta's phone number id, in any workspace, locked for a connect. */
  async lockByPhoneNumberId(
    runner: SqlRunner,
    phoneNumberId: string,
  ): Promise<WhatsAppNumberRow | undefined> {
    const rows = rowsOf<WhatsAppNumberRow>(
      await runner.query(
        `SELECT ${NUMBER_SELECT} FROM ${NUMBER_FROM} WHERE n.phone_number_id = $1 FOR UPDATE OF n`,
        [phoneNumberId],
      ),
    );
    return rows[0];
  }

  /** The workspace's numbers (`filter` starts with the workspace), newest first by default. */
  list(
    filter: SqlFilter,
    bound: Record<string, unknown>,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<WhatsAppNumberRow>> {
    return paginate<WhatsAppNumberRow>(
      this.reads,
      {
        from: NUMBER_FROM,
        select: NUMBER_SELECT,
        where: { sql: filter.sql, params: filter.params },
        filters: bound,
        sorts: { created_at: { column: 'n.created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'n.id',
      },
      page,
      cursors,
    );
  }

  listEvents(
    workspaceId: string,
    numberId: string,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<WhatsAppNumberEventRow>> {
    return paginate<WhatsAppNumberEventRow>(
      this.reads,
      {
        from: 'sms_whatsapp.whatsapp_number_events',
        select: 'id, type, summary, metadata, created_at',
        where: { sql: 'workspace_id = $1 AND number_id = $2', params: [workspaceId, numberId] },
        filters: { workspaceId, numberId },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'seq',
      },
      page,
      cursors,
    );
  }

  /** Records events in one statement. */
  async insertEvents(runner: SqlRunner, events: NewNumberEvent[]): Promise<void> {
    if (!events.length) return;
    await runner.query(
      `INSERT INTO sms_whatsapp.whatsapp_number_events
         (id, workspace_id, number_id, type, summary, metadata)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[])`,
      [
        events.map((e) => e.id),
        events.map((e) => e.workspaceId),
        events.map((e) => e.numberId),
        events.map((e) => e.type),
        events.map((e) => e.summary),
        events.map((e) => JSON.stringify(e.metadata)),
      ],
    );
  }
}
