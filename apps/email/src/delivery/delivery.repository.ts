import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '@switchboard/persistence';
import { aggregateStatus, MESSAGE_COLUMNS, RECIPIENT_COLUMNS } from '../messages';
import type { MessageRow, RecipientRow } from '../messages';

export interface StoredContent {
  message_id?: string;
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
  message_id: string;
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

/**
 * SQL of processing and delivery, each statement for a whole batch of messages (a worker claims
 * several jobs at once), in the caller's transaction or on the pool (`runner`). Jobs carry ids
 * the service wrote itself, so no workspace input.
 */
@Injectable()
export class DeliveryRepository {
  async messages(runner: SqlRunner, ids: string[]): Promise<MessageRow[]> {
    return (await runner.query(`SELECT ${MESSAGE_COLUMNS} FROM email.messages WHERE id = ANY($1)`, [
      ids,
    ])) as MessageRow[];
  }

  /** Locks the messages in id order: every batch takes them so, so none waits in a cycle. */
  async lockMessages(runner: SqlRunner, ids: string[]): Promise<MessageRow[]> {
    return (await runner.query(
      `SELECT ${MESSAGE_COLUMNS} FROM email.messages WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
      [ids],
    )) as MessageRow[];
  }

  /** The messages' recipients in these statuses (and among `ids` when given), in order. */
  async recipients(
    runner: SqlRunner,
    messageIds: string[],
    statuses: string[],
    ids?: string[],
  ): Promise<RecipientRow[]> {
    return (await runner.query(
      `SELECT ${RECIPIENT_COLUMNS} FROM email.recipients
       WHERE message_id = ANY($1) AND status = ANY($2) ${ids ? 'AND id = ANY($3)' : ''}
       ORDER BY message_id, position`,
      ids ? [messageIds, statuses, ids] : [messageIds, statuses],
    )) as RecipientRow[];
  }

  async contents(runner: SqlRunner, messageIds: string[]): Promise<Map<string, StoredContent>> {
    const rows = (await runner.query(
      `SELECT message_id, html, text, attachments, purged FROM email.contents
       WHERE message_id = ANY($1)`,
      [messageIds],
    )) as Array<StoredContent & { message_id: string }>;
    return new Map(rows.map((row) => [row.message_id, row]));
  }

  /**
   * The contents as generated (parameters substituted), kept until the retention ends, and the
   * messages marked processed with their rendered subjects; one statement.
   */
  async markGenerated(
    runner: SqlRunner,
    generated: Array<{
      message_id: string;
      subject: string;
      html: string | null;
      text: string | null;
    }>,
    retentionDays: number,
    /** The retry window: content is never purged while a deferred recipient may still need it. */
    keepForMinutes: number,
  ): Promise<void> {
    if (generated.length === 0) return;
    await runner.query(
      `WITH g AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb)
           AS g(message_id text, subject text, html text, text text)
       ), c AS (
         UPDATE email.contents c SET html = g.html, text = g.text, generated_at = now(),
           expires_at = now() + greatest(make_interval(days => $2), make_interval(mins => $3))
         FROM g WHERE c.message_id = g.message_id
       )
       UPDATE email.messages m SET subject = g.subject, processed_at = now()
       FROM g WHERE m.id = g.message_id`,
      [JSON.stringify(generated), retentionDays, keepForMinutes],
    );
  }

  /**
   * Messages processed without generating anything (nobody left to send to; their contents are
   * dropped by `ContentsRepository.purge`).
   */
  async markProcessed(runner: SqlRunner, messageIds: string[]): Promise<void> {
    if (messageIds.length === 0) return;
    await runner.query(`UPDATE email.messages SET processed_at = now() WHERE id = ANY($1)`, [
      messageIds,
    ]);
  }

  /**
   * Every recipient's new state in one statement. The message ids keep the plan on the
   * recipients' message index: on a small table the planner would otherwise scan it whole.
   */
  async updateRecipients(runner: SqlRunner, updates: RecipientUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await runner.query(
      `UPDATE email.recipients r SET
         status = u.status,
         rejection_reason = COALESCE(u.rejection_reason, r.rejection_reason),
         -- Delivered or rejected at last, an earlier deferral's reply no longer describes it.
         bounce_type = CASE WHEN u.delivered OR u.status = 'rejected' THEN NULL
           ELSE COALESCE(u.bounce_type, r.bounce_type) END,
         bounce_code = CASE WHEN u.delivered OR u.status = 'rejected' THEN NULL
           ELSE COALESCE(u.bounce_code, r.bounce_code) END,
         bounce_description = CASE WHEN u.delivered THEN NULL
           ELSE COALESCE(u.bounce_description, r.bounce_description) END,
         processed_at = CASE WHEN u.processed THEN now() ELSE r.processed_at END,
         delivered_at = CASE WHEN u.delivered THEN now() ELSE r.delivered_at END,
         first_deferred_at = CASE WHEN u.deferred THEN COALESCE(r.first_deferred_at, now()) ELSE r.first_deferred_at END,
         attempts = r.attempts + CASE WHEN u.delivered OR u.deferred OR u.status = 'bounced' THEN 1 ELSE 0 END,
         finished_at = CASE WHEN u.finished THEN now() ELSE r.finished_at END
       FROM jsonb_to_recordset($1::jsonb) AS u(id text, message_id text, status text,
         rejection_reason text, bounce_type text, bounce_code text, bounce_description text,
         processed boolean, delivered boolean, deferred boolean, finished boolean)
       WHERE r.message_id = ANY($2) AND r.id = u.id AND r.message_id = u.message_id`,
      [JSON.stringify(updates), [...new Set(updates.map((update) => update.message_id))]],
    );
  }

  /**
   * Recounts the messages' recipients into their rows: counts, aggregate status, the fastest
   * latencies, and `delivered_at` once every recipient is final. Two statements for the batch.
   */
  async recount(runner: SqlRunner, messages: MessageRow[]): Promise<void> {
    if (messages.length === 0) return;
    const counted = (await runner.query(
      `SELECT message_id,
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
       FROM email.recipients WHERE message_id = ANY($1) GROUP BY message_id`,
      [messages.map((message) => message.id)],
    )) as Array<Record<string, number | string | null>>;
    const byMessage = new Map(counted.map((row) => [String(row.message_id), row]));
    const rows = messages.map((message) => countsRow(message, byMessage.get(message.id) ?? {}));
    await runner.query(
      `UPDATE email.messages m SET status = c.status, accepted_count = c.accepted,
         processed_count = c.processed, deferred_count = c.deferred,
         delivered_count = c.delivered, bounced_count = c.bounced,
         complained_count = c.complained, rejected_count = c.rejected,
         processing_latency_ms = c.processing_latency_ms,
         delivery_latency_ms = c.delivery_latency_ms, total_latency_ms = c.total_latency_ms,
         delivered_at = c.delivered_at
       FROM jsonb_to_recordset($1::jsonb) AS c(id text, status text, accepted int, processed int,
         deferred int, delivered int, bounced int, complained int, rejected int,
         processing_latency_ms int, delivery_latency_ms int, total_latency_ms int,
         delivered_at timestamptz)
       WHERE m.id = ANY($2) AND m.id = c.id`,
      [JSON.stringify(rows), messages.map((message) => message.id)],
    );
  }
}

/** A message's row values from its recipients' counts (`recount`'s first statement). */
function countsRow(message: MessageRow, c: Record<string, number | string | null>) {
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
  const ms = (key: string) => (c[key] === null || c[key] === undefined ? null : Number(c[key]));
  const firstProcessed = ms('first_processed_ms');
  const firstDelivered = ms('first_delivered_ms');
  const deliveryMs = ms('delivery_ms');
  const final = n('accepted') + n('processed') + n('deferred') === 0;
  return {
    id: message.id,
    status,
    accepted: n('accepted'),
    processed: n('processed_total'),
    deferred: n('deferred'),
    delivered: n('delivered'),
    bounced: n('bounced'),
    complained: n('complained'),
    rejected: n('rejected'),
    processing_latency_ms: firstProcessed === null ? null : clamp(firstProcessed - created),
    delivery_latency_ms: deliveryMs === null ? null : clamp(deliveryMs),
    total_latency_ms: firstDelivered === null ? null : clamp(firstDelivered - created),
    delivered_at:
      final && n('delivered') > 0
        ? new Date(ms('last_delivered_ms') ?? Date.now()).toISOString()
        : null,
  };
}
