import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ListSmsMessagesRequest } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { MESSAGE_COLUMNS } from './message.mapper';
import type { SmsEventRow, SmsMessageRow } from './message.mapper';

/** Named reads of SMS messages and their timelines; every one scoped by workspace. */
@Injectable()
export class MessagesRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  async findMessage(workspaceId: string, id: string): Promise<SmsMessageRow | undefined> {
    const rows = rowsOf<SmsMessageRow>(
      await this.reads.query(
        `SELECT ${MESSAGE_COLUMNS} FROM sms_whatsapp.sms_messages WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /**
   * Newest first by keyset; `created_after` (already raised to the retention bound) inclusive,
   * `created_before` exclusive; `status` and `error_code` match any of theirs, `tag` all.
   */
  listMessages(
    workspaceId: string,
    request: ListSmsMessagesRequest & { created_after: string; requested_after?: string },
    cursors: CursorCodec,
  ): Promise<Page<SmsMessageRow>> {
    const params: unknown[] = [workspaceId];
    const where = ['workspace_id = $1'];
    const add = (sql: (placeholder: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    add((p) => `created_at >= ${p}::timestamptz`, request.created_after);
    if (request.created_before)
      add((p) => `created_at < ${p}::timestamptz`, request.created_before);
    if (request.direction) add((p) => `direction = ${p}`, request.direction);
    if (request.status?.length) add((p) => `status = ANY (${p}::text[])`, request.status);
    if (request.error_code?.length)
      add((p) => `last_error_code = ANY (${p}::text[])`, request.error_code);
    if (request.category) add((p) => `category = ${p}`, request.category);
    if (request.to) add((p) => `to_address = ${p}`, request.to);
    if (request.from) add((p) => `from_address = ${p}`, request.from);
    const tags = request.tag ?? [];
    for (const tag of tags) {
      const [name, ...rest] = tag.split(':');
      const wanted = rest.length ? { name, value: rest.join(':') } : { name };
      add((p) => `tags @> ${p}::jsonb`, JSON.stringify([wanted]));
    }
    return paginate<SmsMessageRow>(
      this.reads,
      {
        from: 'sms_whatsapp.sms_messages',
        select: MESSAGE_COLUMNS,
        where: { sql: where.join(' AND '), params },
        filters: {
          workspaceId,
          // What the client asked for: the retention bound moves daily, the cursor must not.
          created_after: request.requested_after ?? null,
          created_before: request.created_before ?? null,
          direction: request.direction ?? null,
          status: request.status ?? [],
          error_code: request.error_code ?? [],
          category: request.category ?? null,
          to: request.to ?? null,
          from: request.from ?? null,
          tags,
        },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      {
        limit: request.limit,
        starting_after: request.starting_after,
        ending_before: request.ending_before,
      },
      cursors,
    );
  }

  /** The whole timeline, oldest first (events of one instant in the order written), optionally of one type. */
  async listEvents(
    workspaceId: string,
    messageId: string,
    type: string | undefined,
  ): Promise<SmsEventRow[]> {
    return rowsOf<SmsEventRow>(
      await this.reads.query(
        `SELECT id, type, occurred_at, carrier, mcc_mnc, error
         FROM sms_whatsapp.sms_message_events
         WHERE workspace_id = $1 AND message_id = $2 AND ($3::text IS NULL OR type = $3)
         ORDER BY occurred_at, seq`,
        [workspaceId, messageId, type ?? null],
      ),
    );
  }
}
