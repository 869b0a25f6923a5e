import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ListWhatsAppMessagesRequest } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { MESSAGE_COLUMNS } from './message.mapper';
import type { WhatsAppEventRow, WhatsAppMessageRow } from './message.mapper';

/** A list request whose `created_after` is already raised to the retention bound. */
export type BoundListRequest = ListWhatsAppMessagesRequest & {
  created_after: string;
  requested_after?: string;
};

/** Named reads of WhatsApp messages and their timelines; every one scoped by workspace. */
@Injectable()
export class WhatsAppMessagesRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  async findMessage(workspaceId: string, id: string): Promise<WhatsAppMessageRow | undefined> {
    const rows = rowsOf<WhatsAppMessageRow>(
      await this.reads.query(
        `SELECT ${MESSAGE_COLUMNS} FROM sms_whatsapp.whatsapp_messages
         WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /**
   * Newest first by keyset. `to` and `from` match the end of the message they name (the contact
   * by phone or BSUID on one direction, the business number on the other); `phone_number` and
   * `bsuid` match the contact in either direction; `status` any of its values, `tag` all.
   */
  listMessages(
    workspaceId: string,
    request: BoundListRequest,
    cursors: CursorCodec,
  ): Promise<Page<WhatsAppMessageRow>> {
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
    if (request.category) add((p) => `category = ${p}`, request.category);
    const contact = (p: string) => `(contact_phone = ${p} OR contact_bsuid = ${p})`;
    if (request.to)
      add(
        (p) =>
          `((direction = 'outbound' AND ${contact(p)}) OR (direction = 'inbound' AND business_phone = ${p}))`,
        request.to,
      );
    if (request.from)
      add(
        (p) =>
          `((direction = 'inbound' AND ${contact(p)}) OR (direction = 'outbound' AND business_phone = ${p}))`,
        request.from,
      );
    if (request.phone_number) add((p) => `contact_phone = ${p}`, request.phone_number);
    if (request.bsuid) add((p) => `contact_bsuid = ${p}`, request.bsuid);
    const tags = request.tag ?? [];
    for (const tag of tags) {
      const [name, ...rest] = tag.split(':');
      const wanted = rest.length ? { name, value: rest.join(':') } : { name };
      add((p) => `tags @> ${p}::jsonb`, JSON.stringify([wanted]));
    }
    return paginate<WhatsAppMessageRow>(
      this.reads,
      {
        from: 'sms_whatsapp.whatsapp_messages',
        select: MESSAGE_COLUMNS,
        where: { sql: where.join(' AND '), params },
        filters: {
          workspaceId,
          // What the client asked for: the retention bound moves daily, the cursor must not.
          created_after: request.requested_after ?? null,
          created_before: request.created_before ?? null,
          direction: request.direction ?? null,
          status: request.status ?? [],
          category: request.category ?? null,
          to: request.to ?? null,
          from: request.from ?? null,
          phone_number: request.phone_number ?? null,
          bsuid: request.bsuid ?? null,
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

  /** The whole timeline, oldest first (events of one instant in the order written). */
  async listEvents(
    workspaceId: string,
    messageId: string,
    type: string | undefined,
  ): Promise<WhatsAppEventRow[]> {
    return rowsOf<WhatsAppEventRow>(
      await this.reads.query(
        `SELECT id, type, occurred_at, error FROM sms_whatsapp.whatsapp_message_events
         WHERE workspace_id = $1 AND message_id = $2 AND ($3::text IS NULL OR type = $3)
         ORDER BY occurred_at, seq`,
        [workspaceId, messageId, type ?? null],
      ),
    );
  }
}
