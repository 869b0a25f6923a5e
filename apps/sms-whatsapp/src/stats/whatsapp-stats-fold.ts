import type { SqlRunner } from '@switchboard/persistence';
import { rowsOf } from '@switchboard/persistence';

/** The WhatsApp event types the rollups count. */
export const WHATSAPP_STATS_EVENT_TYPES = [
  'whatsapp.accepted',
  'whatsapp.sent',
  'whatsapp.delivered',
  'whatsapp.read',
  'whatsapp.failed',
  'whatsapp.rejected',
  'whatsapp.received',
] as const;

const ms = (from: string, to: string) => `extract(epoch FROM (${to} - ${from})) * 1000`;

/**
 * The one statement that folds a batch of WhatsApp events into the rollups (ADR 18), as
 * `smsFoldStatement` does for SMS: `source` gives `(message_id, type, occurred_at)`, each
 * (message, type) counts once, in the hour its message was accepted.
 */
export function whatsappFoldStatement(source: string): string {
  const count = (condition: string) => `count(*) FILTER (WHERE ${condition})::int`;
  const sketch = (column: string) =>
    `sms_whatsapp.stats_sketch_of(array_agg(sms_whatsapp.stats_sketch_slot(${column})) FILTER (WHERE ${column} IS NOT NULL))`;
  const add = (column: string) => `${column} = r.${column} + excluded.${column}`;
  const merge = (column: string) =>
    `${column} = sms_whatsapp.stats_sketch_add(r.${column}, excluded.${column})`;
  // What a group of keyed events adds to its row, quarter-hourly and daily alike.
  const figures = `${count(`type = 'whatsapp.accepted'`)} AS accepted,
        ${count(`type = 'whatsapp.sent'`)} AS sent,
        ${count(`type = 'whatsapp.delivered'`)} AS delivered,
        ${count(`type = 'whatsapp.failed'`)} AS failed,
        ${count(`type = 'whatsapp.rejected'`)} AS rejected,
        ${count(`type = 'whatsapp.read'`)} AS read,
        ${sketch('processing')} AS processing_ms,
        ${sketch('delivery')} AS delivery_ms,
        ${sketch('total')} AS total_ms`;
  return `WITH incoming AS (
      SELECT DISTINCT ON (message_id, type) message_id, type, occurred_at FROM (${source}) s
      WHERE type IN (${WHATSAPP_STATS_EVENT_TYPES.map((type) => `'${type}'`).join(', ')})
      ORDER BY message_id, type, occurred_at
    ), claimed AS (
      INSERT INTO sms_whatsapp.stats_folded_events (message_id, type)
      SELECT message_id, type FROM incoming ORDER BY message_id, type
      ON CONFLICT DO NOTHING RETURNING message_id, type
    ), facts AS (
      SELECT m.workspace_id, date_bin('15 minutes', m.created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS bucket, c.type, m.direction,
        m.business_phone, m.country_code, m.category, m.template_id, m.last_error_code, m.tags,
        CASE WHEN c.type = 'whatsapp.sent' THEN ${ms('m.created_at', 'i.occurred_at')} END AS processing,
        CASE WHEN c.type = 'whatsapp.delivered' AND m.sent_at IS NOT NULL
          THEN ${ms('m.sent_at', 'i.occurred_at')} END AS delivery,
        CASE WHEN c.type = 'whatsapp.delivered' THEN ${ms('m.created_at', 'i.occurred_at')} END AS total
      FROM claimed c
      JOIN incoming i USING (message_id, type)
      -- On the batch's id, not the ledger's: its "C" collation would hide the primary key (a
      -- sequential scan of every message per batch, 7x slower at 1,000,000 messages).
      JOIN sms_whatsapp.whatsapp_messages m ON m.id = i.message_id
    ), keyed AS (
      SELECT f.*, d.dimension, d.value
      FROM facts f
      CROSS JOIN LATERAL (
        VALUES ('', ''), ('template', f.template_id), ('category', f.category),
          ('phone_number', f.business_phone), ('country', coalesce(nullif(f.country_code, ''), 'ZZ'))
        UNION ALL SELECT 'error_code', f.last_error_code WHERE f.type = 'whatsapp.failed'
        UNION ALL SELECT DISTINCT 'tag', t->>'name' || ':' || (t->>'value') FROM jsonb_array_elements(f.tags) t
        UNION ALL SELECT DISTINCT 'tag_name', t->>'name' FROM jsonb_array_elements(f.tags) t
      ) AS d (dimension, value)
      WHERE f.direction = 'outbound' AND d.value IS NOT NULL
    ), deltas AS (
      SELECT workspace_id, dimension, value, bucket,
        ${figures}
      FROM keyed GROUP BY workspace_id, dimension, value, bucket
    ), daily_deltas AS (
      SELECT workspace_id, dimension, value,
        date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket,
        ${figures}
      FROM keyed GROUP BY 1, 2, 3, 4
    ), outbound AS (
      INSERT INTO sms_whatsapp.whatsapp_stats_rollups AS r (workspace_id, dimension, value, bucket,
        accepted, sent, delivered, failed, rejected, read, processing_ms, delivery_ms, total_ms)
      SELECT * FROM deltas ORDER BY workspace_id, dimension, value, bucket
      ON CONFLICT (workspace_id, dimension, value, bucket) DO UPDATE SET
        ${['accepted', 'sent', 'delivered', 'failed', 'rejected', 'read'].map(add).join(', ')},
        ${['processing_ms', 'delivery_ms', 'total_ms'].map(merge).join(', ')}
    ), daily AS (
      INSERT INTO sms_whatsapp.whatsapp_stats_daily_rollups AS r (workspace_id, dimension, value, bucket,
        accepted, sent, delivered, failed, rejected, read, processing_ms, delivery_ms, total_ms)
      SELECT * FROM daily_deltas ORDER BY workspace_id, dimension, value, bucket
      ON CONFLICT (workspace_id, dimension, value, bucket) DO UPDATE SET
        ${['accepted', 'sent', 'delivered', 'failed', 'rejected', 'read'].map(add).join(', ')},
        ${['processing_ms', 'delivery_ms', 'total_ms'].map(merge).join(', ')}
    ), inbound AS (
      INSERT INTO sms_whatsapp.whatsapp_inbound_stats_rollups AS r (workspace_id, dimension,
        value, bucket, received)
      SELECT f.workspace_id, d.dimension, d.value, f.bucket, count(*)::int
      FROM facts f
      CROSS JOIN LATERAL (VALUES ('', ''), ('phone_number', f.business_phone)) AS d (dimension, value)
      WHERE f.direction = 'inbound' AND f.type = 'whatsapp.received' AND d.value IS NOT NULL
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (workspace_id, dimension, value, bucket) DO UPDATE SET
        received = r.received + excluded.received
    ), freshness AS (
      INSERT INTO sms_whatsapp.stats_freshness AS r (stream, data_as_of)
      SELECT 'whatsapp', max(occurred_at) FROM incoming HAVING count(*) > 0
      ON CONFLICT (stream) DO UPDATE SET
        data_as_of = greatest(r.data_as_of, excluded.data_as_of), version = r.version + 1
    )
    SELECT count(*)::int AS folded FROM claimed`;
}

/** Folds the bus batch `events`; answers how many counted. */
export async function foldWhatsappEvents(
  runner: SqlRunner,
  events: ReadonlyArray<{ message_id: string; type: string; occurred_at: string }>,
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = rowsOf<{ folded: number }>(
    await runner.query(
      whatsappFoldStatement(
        `SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(message_id text, type text, occurred_at timestamptz)`,
      ),
      [JSON.stringify(events)],
    ),
  );
  return rows[0]?.folded ?? 0;
}
