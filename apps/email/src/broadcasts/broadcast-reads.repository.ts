import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EmailBroadcastClickedLinkList } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { RECIPIENT_COLUMNS } from '../messages';
import type { RecipientRow } from '../messages';
import type { EventRow } from '../messages/message.mapper';
import { BROADCAST_LIMITS } from '@switchboard/contracts';
import type { BroadcastCounters } from './broadcast.mapper';

/** Reads over a broadcast's messages: counters, recipients, events and clicked links. */
@Injectable()
export class BroadcastReadsRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /**
   * Exact counters per broadcast from its recipients: `sent` is processed or later, unique opens
   * count recipients with an open that was not an inbox's prefetch.
   */
  async counters(workspaceId: string, ids: string[]): Promise<Map<string, BroadcastCounters>> {
    if (ids.length === 0) return new Map();
    const rows = rowsOf<BroadcastCounters & { broadcast_id: string }>(
      await this.reads.query(
        `SELECT m.broadcast_id,
           count(*) FILTER (WHERE r.status NOT IN ('accepted', 'rejected'))::int AS sent_count,
           count(*) FILTER (WHERE r.status = 'delivered')::int AS delivered_count,
           count(*) FILTER (WHERE r.status = 'bounced')::int AS bounced_count,
           count(*) FILTER (WHERE r.status = 'complained')::int AS complained_count,
           coalesce(sum(r.open_count), 0)::int AS open_count,
           coalesce(sum(r.click_count), 0)::int AS click_count,
           count(*) FILTER (WHERE r.human_open_count > 0)::int AS unique_opens_non_prefetched,
           count(*) FILTER (WHERE r.click_count > 0)::int AS unique_clicks,
           count(*) FILTER (WHERE r.delivered_at IS NOT NULL)::int AS delivered_recipients,
           (SELECT count(DISTINCT e.recipient_id)::int FROM email.events e
             JOIN email.messages em ON em.id = e.message_id
             WHERE em.broadcast_id = m.broadcast_id AND e.type = 'email.out_of_band_bounce'
           ) AS out_of_band_bounces
         FROM email.messages m JOIN email.recipients r ON r.message_id = m.id
         WHERE m.workspace_id = $1 AND m.broadcast_id = ANY($2::text[])
         GROUP BY m.broadcast_id`,
        [workspaceId, ids],
      ),
    );
    return new Map(rows.map(({ broadcast_id, ...counters }) => [broadcast_id, counters]));
  }

  /** The broadcast's recipients in the order they were prepared; `to` one address. */
  recipients(
    workspaceId: string,
    broadcastId: string,
    to: string | undefined,
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<RecipientRow & { accepted_at: Date }>> {
    const params: unknown[] = [workspaceId, broadcastId];
    let where = 'm.workspace_id = $1 AND m.broadcast_id = $2';
    if (to) where += ` AND r.email = $${params.push(to.trim().toLowerCase())}`;
    return paginate(
      this.reads,
      {
        from: 'email.messages m JOIN email.recipients r ON r.message_id = m.id',
        select: `${RECIPIENT_COLUMNS.split(',')
          .map((column) => `r.${column.trim()}`)
          .join(', ')}, m.created_at AS accepted_at`,
        where: { sql: where, params },
        filters: { workspaceId, broadcastId, to: to ?? null },
        sorts: { id: { column: 'r.id', type: 'text' } },
        defaultSort: 'id',
        defaultOrder: 'asc',
        idColumn: 'r.id',
      },
      request,
      cursors,
    );
  }

  /** The email events of the broadcast's messages, oldest first; recipient-scoped only. */
  events(
    workspaceId: string,
    broadcastId: string,
    type: string | undefined,
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<EventRow>> {
    const params: unknown[] = [workspaceId, broadcastId];
    let where = `m.workspace_id = $1 AND m.broadcast_id = $2
      AND e.type NOT IN ('email.scheduled', 'email.canceled')`;
    if (type) where += ` AND e.type = $${params.push(type)}`;
    return paginate<EventRow>(
      this.reads,
      {
        from: 'email.events e JOIN email.messages m ON m.id = e.message_id',
        select:
          'e.id, e.message_id, e.workspace_id, e.recipient_id, e.type, e.occurred_at, e.detail',
        where: { sql: where, params },
        filters: { workspaceId, broadcastId, type: type ?? null },
        sorts: { seq: { column: 'e.seq', type: 'numeric' } },
        defaultSort: 'seq',
        defaultOrder: 'asc',
        idColumn: 'e.id',
      },
      request,
      cursors,
    );
  }

  /**
   * Clicked URLs, most clicked first (top 100): clicks, distinct recipients, and the link name
   * used by the most clicks that carried one; `total` counts every distinct URL.
   */
  async clickedLinks(
    workspaceId: string,
    broadcastId: string,
  ): Promise<EmailBroadcastClickedLinkList> {
    const rows = rowsOf<{
      url: string;
      name: string | null;
      click_count: number;
      recipient_count: number;
      total: number;
    }>(
      await this.reads.query(
        `WITH clicks AS (
           SELECT url, link_name, recipient_id FROM email.link_clicks
           WHERE broadcast_id = $2 AND workspace_id = $1
         ), per_url AS (
           SELECT url, count(*)::int AS click_count,
             count(DISTINCT recipient_id)::int AS recipient_count
           FROM clicks GROUP BY url
         ), names AS (
           SELECT DISTINCT ON (url) url, link_name AS name FROM clicks
           WHERE link_name IS NOT NULL
           GROUP BY url, link_name ORDER BY url, count(*) DESC, link_name
         )
         SELECT p.url, n.name, p.click_count, p.recipient_count,
           (SELECT count(*)::int FROM per_url) AS total
         FROM per_url p LEFT JOIN names n ON n.url = p.url
         ORDER BY p.click_count DESC, p.url LIMIT $3`,
        [workspaceId, broadcastId, BROADCAST_LIMITS.clickedLinks],
      ),
    );
    return {
      data: rows.map((row) => ({
        url: row.url,
        name: row.name,
        click_count: row.click_count,
        recipient_count: row.recipient_count,
      })),
      total: rows[0]?.total ?? 0,
    };
  }
}
