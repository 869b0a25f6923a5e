import type { SqlRunner } from '@switchboard/persistence';
import { rowsOf } from '@switchboard/persistence';

/** The SMS event types the rollups count; the others (carrier steps) are timeline only. */
export const SMS_STATS_EVENT_TYPES = [
  'sms.accepted',
  'sms.sent',
  'sms.delivered',
  'sms.undelivered',
  'sms.failed',
  'sms.expired',
  'sms.rejected',
  'sms.received',
] as const;

const FAILURES = `('sms.undelivered', 'sms.failed', 'sms.expired', 'sms.rejected')`;
/** Events that follow the carrier handoff: the carrier is known by then. */
const CARRIED = `('sms.sent', 'sms.delivered', 'sms.undelivered', 'sms.expired', 'sms.failed')`;
const ms = (from: string, to: string) => `extract(epoch FROM (${to} - ${from})) * 1000`;

/**
 * The one statement that folds a batch of SMS events into the rollups (ADR 18). `source` is SQL
 * for rows `(message_id, type, occurred_at)`: the bus batch's JSON (parameter `$1`) or a slice of
 * the stored timeline (the rebuild). Each (message, type) is claimed once in
 * `stats_folded_events`, so redelivered events count once; every count lands in the quarter hour the
 * message was accepted (`created_at`), however late its event arrives. Carrier and error code
 * become known after acceptance: their rows take the message's `accepted` (and `sent`) when the
 * event that names them is folded, so their rates stay meaningful.
 */
export function smsFoldStatement(source: string): string {
  const count = (condition: string) => `count(*) FILTER (WHERE ${condition})::int`;
  const sketch = (column: string) =>
    `sms_whatsapp.stats_sketch_of(array_agg(sms_whatsapp.stats_sketch_slot(${column})) FILTER (WHERE ${column} IS NOT NULL))`;
  const add = (column: string) => `${column} = r.${column} + excluded.${column}`;
  const merge = (column: string) =>
    `${column} = sms_whatsapp.stats_sketch_add(r.${column}, excluded.${column})`;
  // What a group of keyed events adds to its row, quarter-hourly and daily alike.
  const figures = `${count(`(type = 'sms.accepted' AND NOT late) OR (late AND dimension = 'carrier' AND type = 'sms.sent') OR (late AND dimension = 'error_code' AND type <> 'sms.rejected')`)} AS accepted,
        ${count(`(type = 'sms.sent' AND dimension <> 'error_code') OR (dimension = 'error_code' AND was_sent)`)} AS sent,
        ${count(`type = 'sms.delivered'`)} AS delivered,
        ${count(`type = 'sms.undelivered'`)} AS undelivered,
        ${count(`type = 'sms.failed'`)} AS failed,
        ${count(`type = 'sms.rejected'`)} AS rejected,
        ${count(`type = 'sms.expired'`)} AS expired,
        ${sketch('processing')} AS processing_ms,
        ${sketch('delivery')} AS delivery_ms,
        ${sketch('total')} AS total_ms`;
  return `WITH incoming AS (
      SELECT DISTINCT ON (message_id, type) message_id, type, occurred_at FROM (${source}) s
      WHERE type IN (${SMS_STATS_EVENT_TYPES.map((type) => `'${type}'`).join(', ')})
      ORDER BY message_id, type, occurred_at
    ), claimed AS (
      INSERT INTO sms_whatsapp.stats_folded_events (message_id, type)
      SELECT message_id, type FROM incoming ORDER BY message_id, type
      ON CONFLICT DO NOTHING RETURNING message_id, type
    ), facts AS (
      SELECT m.workspace_id, date_bin('15 minutes', m.created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS bucket, c.type, m.direction,
        m.from_address, m.to_address, m.country_code, m.category, m.carrier, m.mcc_mnc,
        m.last_error_code, m.tags, m.sent_at IS NOT NULL AS was_sent,
        CASE WHEN c.type = 'sms.sent' THEN ${ms('m.created_at', 'i.occurred_at')} END AS processing,
        CASE WHEN c.type = 'sms.delivered' AND m.sent_at IS NOT NULL
          THEN ${ms('m.sent_at', 'i.occurred_at')} END AS delivery,
        CASE WHEN c.type = 'sms.delivered' THEN ${ms('m.created_at', 'i.occurred_at')} END AS total
      FROM claimed c
      JOIN incoming i USING (message_id, type)
      -- On the batch's id, not the ledger's: its "C" collation would hide the primary key (a
      -- sequential scan of every message per batch, 7x slower at 1,000,000 messages).
      JOIN sms_whatsapp.sms_messages m ON m.id = i.message_id
    ), keyed AS (
      SELECT f.*, d.dimension, d.value, d.late
      FROM facts f
      CROSS JOIN LATERAL (
        VALUES ('', '', false), ('originator', f.from_address, false),
          ('country', coalesce(nullif(f.country_code, ''), 'ZZ'), false),
          ('category', f.category, false)
        UNION ALL SELECT 'carrier', f.carrier, true WHERE f.type IN ${CARRIED}
        UNION ALL SELECT 'error_code', f.last_error_code, true WHERE f.type IN ${FAILURES}
        UNION ALL SELECT DISTINCT 'tag', t->>'name' || ':' || (t->>'value'), false
          FROM jsonb_array_elements(f.tags) t
      ) AS d (dimension, value, late)
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
      INSERT INTO sms_whatsapp.sms_stats_rollups AS r (workspace_id, dimension, value, bucket,
        accepted, sent, delivered, undelivered, failed, rejected, expired, processing_ms,
        delivery_ms, total_ms)
      SELECT * FROM deltas ORDER BY workspace_id, dimension, value, bucket
      ON CONFLICT (workspace_id, dimension, value, bucket) DO UPDATE SET
        ${['accepted', 'sent', 'delivered', 'undelivered', 'failed', 'rejected', 'expired'].map(add).join(', ')},
        ${['processing_ms', 'delivery_ms', 'total_ms'].map(merge).join(', ')}
    ), daily AS (
      INSERT INTO sms_whatsapp.sms_stats_daily_rollups AS r (workspace_id, dimension, value, bucket,
        accepted, sent, delivered, undelivered, failed, rejected, expired, processing_ms,
        delivery_ms, total_ms)
      SELECT * FROM daily_deltas ORDER BY workspace_id, dimension, value, bucket
      ON CONFLICT (workspace_id, dimension, value, bucket) DO UPDATE SET
        ${['accepted', 'sent', 'delivered', 'undelivered', 'failed', 'rejected', 'expired'].map(add).join(', ')},
        ${['processing_ms', 'delivery_ms', 'total_ms'].map(merge).join(', ')}
    ), inbound AS (
      INSERT INTO sms_whatsapp.sms_inbound_stats_rollups AS r (workspace_id, dimension, value,
        bucket, received)
      SELECT f.workspace_id, d.dimension, d.value, f.bucket, count(*)::int
      FROM facts f
      -- The country the workspace holds the number in. A short code held in several countries
      -- took the message in the sender's (inbound routing), so that holding comes first.
      LEFT JOIN LATERAL (
        SELECT a.country_code FROM sms_whatsapp.number_allocations a
        WHERE a.workspace_id = f.workspace_id
          AND a.number IN (f.to_address, '+' || ltrim(f.to_address, '+'))
        ORDER BY a.country_code = f.country_code DESC, a.released_at IS NULL DESC,
          a.allocated_at DESC
        LIMIT 1
      ) n ON TRUE
      CROSS JOIN LATERAL (
        VALUES ('', ''), ('number', f.to_address), ('country', coalesce(n.country_code, 'ZZ')),
          ('operator', f.mcc_mnc)
      ) AS d (dimension, value)
      WHERE f.direction = 'inbound' AND f.type = 'sms.received' AND d.value IS NOT NULL
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (workspace_id, dimension, value, bucket) DO UPDATE SET
        received = r.received + excluded.received
    ), freshness AS (
      INSERT INTO sms_whatsapp.stats_freshness AS r (stream, data_as_of)
      SELECT 'sms', max(occurred_at) FROM incoming HAVING count(*) > 0
      ON CONFLICT (stream) DO UPDATE SET
        data_as_of = greatest(r.data_as_of, excluded.data_as_of), version = r.version + 1
    )
    SELECT count(*)::int AS folded FROM claimed`;
}

/** Folds the bus batch `events` (`message_id`, `type`, `occurred_at`); answers how many counted. */
export async function foldSmsEvents(
  runner: SqlRunner,
  events: ReadonlyArray<{ message_id: string; type: string; occurred_at: string }>,
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = rowsOf<{ folded: number }>(
    await runner.query(
      smsFoldStatement(
        `SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(message_id text, type text, occurred_at timestamptz)`,
      ),
      [JSON.stringify(events)],
    ),
  );
  return rows[0]?.folded ?? 0;
}
