import { Injectable } from '@nestjs/common';
import { outboxChannel } from '@switchboard/background';
import type { SqlRunner } from '@switchboard/persistence';
import { rowsOf } from '@switchboard/persistence';
import type { EmailEventRecord } from '../messages';
import { outboxRow, timelineRow } from '../messages/email-events.repository';

/** The message and recipient a hit names, as its event needs them. */
export interface HitSubject {
  message_id: string;
  recipient_id: string;
  workspace_id: string;
  broadcast_id: string | null;
  sender_domain: string;
  tags: Array<{ name: string; value: string }>;
  metadata: Record<string, unknown> | null;
  email: string;
  role: 'to' | 'cc' | 'bcc';
}

export interface LinkClickRow {
  /** The click's event: the row is written only with a new event. */
  event_id: string;
  workspace_id: string;
  message_id: string;
  recipient_id: string;
  broadcast_id: string | null;
  url: string;
  link_name: string | null;
  clicked_at: string;
}

/** The SQL of recorded opens and clicks: a batch is one read and one write, whatever its size. */
@Injectable()
export class EngagementRepository {
  /** The messages and recipients of (message id, recipient id) pairs that still exist. */
  async subjects(
    runner: SqlRunner,
    pairs: Array<{ messageId: string; recipientId: string }>,
  ): Promise<HitSubject[]> {
    return rowsOf<HitSubject>(
      await runner.query(
        `SELECT r.message_id, r.id AS recipient_id, m.workspace_id, m.broadcast_id, m.sender_domain,
           m.tags,
           m.metadata, r.email, r.role
         FROM unnest($1::text[], $2::text[]) AS h(message_id, recipient_id)
         JOIN email.recipients r ON r.id = h.recipient_id AND r.message_id = h.message_id
         JOIN email.messages m ON m.id = r.message_id`,
        [pairs.map((pair) => pair.messageId), pairs.map((pair) => pair.recipientId)],
      ),
    );
  }

  /**
   * Locks a recipient's row (an unsubscribe's writes take turns) and answers whether its timeline
   * already holds an event of `type`.
   */
  async lockRecipientFor(
    runner: SqlRunner,
    subject: { message_id: string; recipient_id: string },
    type: string,
  ): Promise<boolean> {
    const rows = rowsOf<{ seen: boolean }>(
      await runner.query(
        `SELECT EXISTS (SELECT 1 FROM email.events e WHERE e.message_id = r.message_id
           AND e.recipient_id = r.id AND e.type = $3) AS seen
         FROM email.recipients r WHERE r.id = $2 AND r.message_id = $1 FOR UPDATE`,
        [subject.message_id, subject.recipient_id, type],
      ),
    );
    return rows[0]?.seen ?? false;
  }

  /**
   * In one statement (so one transaction): the events on the timelines, and only for those that
   * were new (a hit offered again conflicts on its event id) the recipients' and messages'
   * counters, the clicks' rows of email.link_clicks and the outbox rows. The counters are summed
   * from the inserted events themselves, so they cannot move without one.
   */
  async record(
    runner: SqlRunner,
    events: EmailEventRecord[],
    clicks: LinkClickRow[],
  ): Promise<void> {
    if (events.length === 0) return;
    await runner.query(
      `WITH e AS (
         INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at,
           detail)
         SELECT id, message_id, workspace_id, recipient_id, type, occurred_at, detail
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, message_id text, workspace_id text,
           recipient_id text, type text, occurred_at timestamptz, detail jsonb)
         ON CONFLICT (id) DO NOTHING
         RETURNING id, message_id, recipient_id, type, occurred_at,
           coalesce((detail->>'is_prefetched')::boolean, false) AS prefetched
       ), x AS (
         SELECT recipient_id AS id, message_id,
           count(*) FILTER (WHERE type = 'email.opened')::int AS opens,
           count(*) FILTER (WHERE type = 'email.opened' AND NOT prefetched)::int AS human_opens,
           count(*) FILTER (WHERE type = 'email.clicked')::int AS clicks,
           min(occurred_at) FILTER (WHERE type = 'email.opened') AS first_opened_at,
           min(occurred_at) FILTER (WHERE type = 'email.clicked') AS first_clicked_at
         FROM e GROUP BY recipient_id, message_id
       ), r AS (
         -- Row locks in the order of the recipients' ids, whichever batch takes them.
         UPDATE email.recipients r
         SET open_count = r.open_count + x.opens,
           human_open_count = r.human_open_count + x.human_opens,
           click_count = r.click_count + x.clicks,
           first_opened_at = LEAST(r.first_opened_at, x.first_opened_at),
           first_clicked_at = LEAST(r.first_clicked_at, x.first_clicked_at)
         FROM (SELECT * FROM x ORDER BY id) x WHERE r.id = x.id AND r.message_id = x.message_id
       ), m AS (
         UPDATE email.messages m
         SET open_count = m.open_count + s.opens, click_count = m.click_count + s.clicks
         FROM (SELECT message_id, sum(opens) AS opens, sum(clicks) AS clicks FROM x
               GROUP BY message_id) s
         WHERE m.id = s.message_id
       ), l AS (
         INSERT INTO email.link_clicks (workspace_id, message_id, recipient_id, broadcast_id, url,
           link_name, clicked_at)
         SELECT c.workspace_id, c.message_id, c.recipient_id, c.broadcast_id, c.url, c.link_name,
           c.clicked_at
         FROM jsonb_to_recordset($2::jsonb) AS c(event_id text, workspace_id text,
           message_id text, recipient_id text, broadcast_id text, url text, link_name text,
           clicked_at timestamptz)
         JOIN e ON e.id = c.event_id
       ), o AS (
         INSERT INTO email.outbox (id, type, workspace_id, payload)
         SELECT x.id, x.type, x.workspace_id, x.payload
         FROM jsonb_to_recordset($3::jsonb) AS x(id text, type text, workspace_id text,
           payload jsonb)
         JOIN e ON e.id = x.id
       )
       SELECT pg_notify($4, '')`,
      [
        JSON.stringify(events.map(timelineRow)),
        JSON.stringify(clicks),
        JSON.stringify(events.map(outboxRow)),
        outboxChannel('email'),
      ],
    );
  }
}
