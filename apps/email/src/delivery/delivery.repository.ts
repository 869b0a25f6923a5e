import type { SqlRunner } from '@switchboard/persistence';
import { MESSAGE_COLUMNS, RECIPIENT_COLUMNS } from '../messages/message.mapper';
import type { MessageRow, RecipientRow } from '../messages/message.mapper';
import { aggregateStatus } from '../messages/message-status';

export interface StoredContent {
  purged: boolean;
  html: string | null;
  text: string | null;
  attachments: Array<{
    filename: string;
    content: string;
    content_type: string;
    content_id?: string;
  }>;
}

/** A recipient's new state after processing or a delivery attempt. */
export interface RecipientUpdate {
  id: string;
  status: RecipientRow['status'];
  rejection_reason?: string | null;
  bounce_type?: string | null;
  bounce_code?: string | null;
  bounce_description?: string | null;
  processed?: boolean;
  delivered?: boolean;
  deferred?: boolean;
  finished?: boolean;
}

/** SQL of the delivery workers. Jobs carry ids the service wrote itself, so no workspace input. */
export const deliveryRepository = {
  async message(runner: SqlRunner, id: string): Promise<MessageRow | undefined> {
    const rows = (await runner.query(
      `SELECT ${MESSAGE_COLUMNS} FROM email.messages WHERE id = $1`,
      [id],
    )) as MessageRow[];
    return rows[0];
  },

  async lockMessage(runner: SqlRunner, id: string): Promise<MessageRow | undefined> {
    const rows = (await runner.query(
      `SELECT ${MESSAGE_COLUMNS} FROM email.messages WHERE id = $1 FOR UPDATE`,
      [id],
    )) as MessageRow[];
    return rows[0];
  },

  async recipients(
    runner: SqlRunner,
    messageId: string,
    statuses: string[],
    ids?: string[],
  ): Promise<RecipientRow[]> {
    return (await runner.query(
      `SELECT ${RECIPIENT_COLUMNS} FROM email.recipients
       WHERE message_id = $1 AND status = ANY($2) ${ids ? 'AND id = ANY($3)' : ''}
       ORDER BY position`,
      ids ? [messageId, statuses, ids] : [messageId, statuses],
    )) as RecipientRow[];
  },

  async content(runner: SqlRunner, messageId: string): Promise<StoredContent | undefined> {
    const rows = (await runner.query(
      'SELECT html, text, attachments, purged FROM email.contents WHERE message_id = $1',
      [messageId],
    )) as StoredContent[];
    return rows[0];
  },

  /** The content as generated (parameters substituted), kept until the retention ends. */
  async markGenerated(
    runner: SqlRunner,
    messageId: string,
    rendered: { subject: string; html: string | null; text: string | null },
    retentionDays: number,
    /** The retry window: content is never purged while a deferred recipient may still need it. */
    keepForMinutes: number,
  ): Promise<void> {
    await runner.query(
      `WITH c AS (
         UPDATE email.contents SET html = $2, text = $3, generated_at = now(),
           expires_at = now() + greatest(make_interval(days => $4), make_interval(mins => $6))
         WHERE message_id = $1
       )
       UPDATE email.messages SET subject = $5, processed_at = now() WHERE id = $1`,
      [messageId, rendered.html, rendered.text, retentionDays, rendered.subject, keepForMinutes],
    );
  },

  /**
   * Every recipient's new state in one statement. The message id keeps the plan on the
   * message's index: on a small table the planner would otherwise scan it whole.
   */
  async updateRecipients(
    runner: SqlRunner,
    messageId: string,
    updates: RecipientUpdate[],
  ): Promise<void> {
    if (updates.length === 0) return;
    await runner.query(
      `UPDATE email.recipients r SET
         status = u.status,
         rejection_reason = COALESCE(u.rejection_reason, r.rejection_reason),
         bounce_type = CASE WHEN u.delivered THEN NULL ELSE COALESCE(u.bounce_type, r.bounce_type) END,
         bounce_code = CASE WHEN u.delivered THEN NULL ELSE COALESCE(u.bounce_code, r.bounce_code) END,
         bounce_description = CASE WHEN u.delivered THEN NULL
           ELSE COALESCE(u.bounce_description, r.bounce_description) END,
         processed_at = CASE WHEN u.processed THEN now() ELSE r.processed_at END,
         delivered_at = CASE WHEN u.delivered THEN now() ELSE r.delivered_at END,
         first_deferred_at = CASE WHEN u.deferred THEN COALESCE(r.first_deferred_at, now()) ELSE r.first_deferred_at END,
         attempts = r.attempts + CASE WHEN u.delivered OR u.deferred OR u.status = 'bounced' THEN 1 ELSE 0 END,
         finished_at = CASE WHEN u.finished THEN now() ELSE r.finished_at END
       FROM jsonb_to_recordset($1::jsonb) AS u(id text, status text, rejection_reason text,
         bounce_type text, bounce_code text, bounce_description text, processed boolean,
         delivered boolean, deferred boolean, finished boolean)
       WHERE r.message_id = $2 AND r.id = u.id`,
      [JSON.stringify(updates), messageId],
    );
  },

  /**
   * Recounts the message's recipients into its row: counts, aggregate status, the fastest
   * latencies, and `delivered_at` once every recipient is final. Two statements.
   */
  async recount(runner: SqlRunner, message: MessageRow): Promise<void> {
    const [c] = (await runner.query(
      `SELECT
         count(*) FILTER (WHERE status = 'accepted')::int AS accepted,
         count(*) FILTER (WHERE processed_at IS NOT NULL)::int AS processed_total,
         count(*) FILTER (WHERE status = 'processed')::int AS processed,
         count(*) FILTER (WHERE status = 'deferred')::int AS deferred,
         count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
         count(*) FILTER (WHERE status = 'bounced')::int AS bounced,
         count(*) FILTER (WHERE status = 'complained')::int AS complained,
         count(*) FILTER (WHERE status = 'rejected')::int AS rejected,
         (min(extract(epoch FROM processed_at)) * 1000)::bigint AS first_processed_ms,
         (min(extract(epoch FROM delivered_at - processed_at)) * 1000)::int AS delivery_ms,
         (max(extract(epoch FROM delivered_at)) * 1000)::bigint AS last_delivered_ms,
         (min(extract(epoch FROM delivered_at)) * 1000)::bigint AS first_delivered_ms
       FROM email.recipients WHERE message_id = $1`,
      [message.id],
    )) as Array<Record<string, number | string | null>>;
    const n = (key: string) => Number(c[key] ?? 0);
    const status = aggregateStatus(
      {
        accepted: n('accepted'),
        processed: n('processed'),
        deferred: n('deferred'),
        delivered: n('delivered'),
        bounced: n('bounced'),
        complained: n('complained'),
        rejected: n('rejected'),
      },
      { canceled: message.canceled_at !== null, scheduled: false },
    );
    // Latencies count from when the message was let go: its scheduled time, or its acceptance.
    const created = (message.scheduled_at ?? message.created_at).getTime();
    const clamp = (value: number) => Math.min(Math.max(0, value), 2_147_483_647);
    const ms = (key: string) => (c[key] === null ? null : Number(c[key]));
    const firstProcessed = ms('first_processed_ms');
    const firstDelivered = ms('first_delivered_ms');
    const final = n('accepted') + n('processed') + n('deferred') === 0;
    await runner.query(
      `UPDATE email.messages SET status = $2, accepted_count = $3, processed_count = $4,
         deferred_count = $5, delivered_count = $6, bounced_count = $7, complained_count = $8,
         rejected_count = $9, processing_latency_ms = $10, delivery_latency_ms = $11,
         total_latency_ms = $12, delivered_at = $13
       WHERE id = $1`,
      [
        message.id,
        status,
        n('accepted'),
        n('processed_total'),
        n('deferred'),
        n('delivered'),
        n('bounced'),
        n('complained'),
        n('rejected'),
        firstProcessed === null ? null : clamp(firstProcessed - created),
        ms('delivery_ms') === null ? null : clamp(ms('delivery_ms') ?? 0),
        firstDelivered === null ? null : clamp(firstDelivered - created),
        final && n('delivered') > 0 ? new Date(ms('last_delivered_ms') ?? Date.now()) : null,
      ],
    );
  },
};
