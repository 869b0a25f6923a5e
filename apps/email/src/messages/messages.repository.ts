import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ListEmailMessagesRequest } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { MESSAGE_COLUMNS, RECIPIENT_COLUMNS } from './message.mapper';
import type { EventRow, MessageRow, RecipientRow } from './message.mapper';

export interface ContentRow {
  html: string | null;
  text: string | null;
  generated_at: Date | null;
  expires_at: Date | null;
  purged: boolean;
}

/** Named reads of email messages, recipients, events and content; every one scoped by workspace. */
@Injectable()
export class MessagesRepository {
  /** Reads go to the pg Pool directly: one round trip, no TypeORM query runner per query. */
  readonly reads: SqlRunner;

  constructor(@InjectDataSource('email') readonly dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  async findMessage(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
    lock = false,
  ): Promise<MessageRow | undefined> {
    const rows = (await runner.query(
      `SELECT ${MESSAGE_COLUMNS} FROM email.messages WHERE workspace_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [workspaceId, id],
    )) as MessageRow[];
    return rows[0];
  }

  /** Newest first; `to` matches any to/cc/bcc recipient, `from` the sender (both lowercased). */
  listMessages(
    workspaceId: string,
    request: ListEmailMessagesRequest,
    cursors: CursorCodec,
  ): Promise<Page<MessageRow>> {
    const params: unknown[] = [workspaceId];
    const where = ['m.workspace_id = $1'];
    const add = (sql: (placeholder: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (request.created_after)
      add((p) => `m.created_at >= ${p}::timestamptz`, request.created_after);
    if (request.created_before)
      add((p) => `m.created_at < ${p}::timestamptz`, request.created_before);
    if (request.status) add((p) => `m.status = ${p}`, request.status);
    if (request.category) add((p) => `m.category = ${p}`, request.category);
    if (request.from) add((p) => `m.from_email = ${p}`, request.from.toLowerCase());
    if (request.to)
      add(
        (p) =>
          `EXISTS (SELECT 1 FROM email.recipients r WHERE r.workspace_id = m.workspace_id AND r.email = ${p} AND r.message_id = m.id)`,
        request.to.toLowerCase(),
      );
    const tags = request.tags ?? (request.tag ? [request.tag] : []);
    if (tags.length > 0) {
      // `name` or `name:value`; a message must carry every one.
      const wanted = tags.map((tag) => {
        const [name, ...rest] = tag.split(':');
        return rest.length ? { name, value: rest.join(':') } : { name };
      });
      add((p) => `m.tags @> ${p}::jsonb`, JSON.stringify(wanted));
    }
    const { limit, starting_after, ending_before } = request;
    return paginate<MessageRow>(
      this.reads,
      {
        from: 'email.messages m',
        select: MESSAGE_COLUMNS,
        where: { sql: where.join(' AND '), params },
        filters: {
          workspaceId,
          created_after: request.created_after ?? null,
          created_before: request.created_before ?? null,
          status: request.status ?? null,
          category: request.category ?? null,
          from: request.from ?? null,
          to: request.to ?? null,
          tags,
        },
        sorts: { created_at: { column: 'm.created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'm.id',
      },
      { limit, starting_after, ending_before },
      cursors,
    );
  }

  /** Recipients in the order the send listed them (to, then cc, then bcc). */
  listRecipients(
    workspaceId: string,
    messageId: string,
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<RecipientRow>> {
    return paginate<RecipientRow>(
      this.reads,
      {
        from: 'email.recipients',
        select: RECIPIENT_COLUMNS,
        where: { sql: 'workspace_id = $1 AND message_id = $2', params: [workspaceId, messageId] },
        filters: { workspaceId, messageId },
        sorts: { position: { column: 'position', type: 'numeric' } },
        defaultSort: 'position',
        defaultOrder: 'asc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  /**
   * The message's timeline in the order it was written (`seq`: events of one instant keep their
   * order), optionally one event type.
   */
  listEvents(
    workspaceId: string,
    messageId: string,
    type: string | undefined,
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<EventRow>> {
    const params: unknown[] = [workspaceId, messageId];
    let where = 'workspace_id = $1 AND message_id = $2';
    if (type) {
      params.push(type);
      where += ' AND type = $3';
    }
    return paginate<EventRow>(
      this.reads,
      {
        from: 'email.events',
        select: 'id, message_id, workspace_id, recipient_id, type, occurred_at, detail',
        where: { sql: where, params },
        filters: { workspaceId, messageId, type: type ?? null },
        sorts: { seq: { column: 'seq', type: 'numeric' } },
        defaultSort: 'seq',
        defaultOrder: 'asc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  async findContent(workspaceId: string, messageId: string): Promise<ContentRow | undefined> {
    const rows = (await this.reads.query(
      `SELECT html, text, generated_at, expires_at, purged FROM email.contents
       WHERE workspace_id = $1 AND message_id = $2`,
      [workspaceId, messageId],
    )) as ContentRow[];
    return rows[0];
  }

  /**
   * scheduled -> canceled under the row lock; false when the message is no longer scheduled, or
   * its send time came and processing took it (a single destination stays `scheduled` while
   * its SMTP conversation runs).
   */
  async cancelScheduled(runner: SqlRunner, workspaceId: string, id: string): Promise<boolean> {
    // An EntityManager answers UPDATE with [rows, count]: rowsOf reads either shape.
    const rows = rowsOf(
      await runner.query(
        `UPDATE email.messages SET status = 'canceled', canceled_at = now()
         WHERE workspace_id = $1 AND id = $2 AND status = 'scheduled' AND processed_at IS NULL
         RETURNING id`,
        [workspaceId, id],
      ),
    );
    return rows.length === 1;
  }
}
