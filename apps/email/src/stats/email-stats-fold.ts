import type { SqlRunner } from '@switchboard/persistence';
import { rowsOf } from '@switchboard/persistence';
import { EMAIL_STATS_COUNTS } from './email-stats-counts';

/** The email event types the rollups count; the others (scheduled, canceled) are timeline only. */
export const EMAIL_STATS_EVENT_TYPES = [
  'email.accepted',
  'email.processed',
  'email.delivered',
  'email.deferred',
  'email.bounced',
  'email.rejected',
  'email.complained',
  'email.out_of_band_bounce',
  'email.opened',
  'email.clicked',
  'email.unsubscribed',
  'email.list_unsubscribed',
] as const;

/** One event as the fold takes it (from the bus batch or from the stored timeline). */
export interface FoldableEmailEvent {
  event_id: string;
  message_id: string;
  recipient_id: string | null;
  type: string;
  occurred_at: string;
  bounce_type: string | null;
  bounce_code: string | null;
  feedback_type: string | null;
  prefetched: boolean;
  /** The opener's or clicker's, on `email.opened` and `email.clicked`. */
  user_agent: string | null;
  /**
   * `[email_client, os, device_type]` of `user_agent` when the caller classified it already
   * (`mailClientOf`, the rules `email.mail_client_of` renders); null: the fold classifies it.
   */
  client: [string | null, string | null, string | null] | null;
}

/** Events counted each time they happen; every other type once per recipient. */
const EACH_EVENT = `('email.opened', 'email.clicked', 'email.unsubscribed', 'email.list_unsubscribed', 'email.out_of_band_bounce', 'email.complained')`;
const ms = (from: string, to: string) => `extract(epoch FROM (${to} - ${from})) * 1000`;

/** The facets of the client breakdown, which claim a recipient's first open or click per value. */
const CLIENT_FACETS = `'^(email_client|os|device_type)(@|$)'`;

/**
 * A recipient counted once: in a client facet's rows once per value of that facet (a recipient
 * who opened on iOS and on Windows is in both), in every other row once.
 */
const unique = (what: string) =>
  `(kind = 'unique_${what}' AND dimension !~ ${CLIENT_FACETS}) OR kind = ('unique_${what}@' || split_part(dimension, '@', 1))`;

/**
 * An event's client, classified by the caller or else here: about 20 case-insensitive regular
 * expressions a call, which cost the fold more than all else per open when it ran them.
 */
const CLIENT_OF = (event: string) =>
  `coalesce(${event}.client, email.mail_client_of(${event}.user_agent))`;

/** The kind of a facet's first open or click: `unique_open@os`, `unique_click@email_client`. */
const FACET_UNIQUE = `'^unique_[a-z_]+@'`;

/** What a group of claimed facts adds to its row, per count column (`kind` is the claim's kind). */
const FIGURES: Record<(typeof EMAIL_STATS_COUNTS)[number], string> = {
  // A message counts once per row, under each recipient domain it was sent to; provider rows
  // show no acceptance (the SDK's), so they count neither.
  sends_accepted: `(kind = 'sends_accepted' AND dimension !~ '^(recipient_domain|mailbox_provider)') OR (kind = 'domain_send' AND dimension LIKE 'recipient_domain%')`,
  accepted: `kind = 'email.accepted'`,
  processed: `kind = 'email.processed'`,
  delivered: `kind = 'email.delivered'`,
  bounced: `kind = 'email.bounced'`,
  hard: `kind = 'email.bounced' AND bounce_type = 'hard'`,
  soft: `kind = 'email.bounced' AND bounce_type = 'soft'`,
  admin: `kind = 'email.bounced' AND bounce_type = 'admin'`,
  block: `kind = 'email.bounced' AND bounce_type = 'block'`,
  undetermined: `kind = 'email.bounced' AND coalesce(bounce_type, 'undetermined') NOT IN ('hard', 'soft', 'admin', 'block')`,
  complained: `kind = 'email.complained'`,
  deferred: `kind = 'email.deferred'`,
  rejected: `kind = 'email.rejected'`,
  oob_bounces: `kind = 'email.out_of_band_bounce'`,
  opens: `kind = 'email.opened'`,
  opens_non_prefetched: `kind = 'email.opened' AND NOT prefetched`,
  unique_opens: unique('open'),
  unique_opens_non_prefetched: unique('human_open'),
  clicks: `kind = 'email.clicked'`,
  unique_clicks: unique('click'),
  unsubscribes: `kind IN ('email.unsubscribed', 'email.list_unsubscribed')`,
};

/**
 * The one statement that folds a batch of email events into the rollups (ADR 18). `source` is
 * SQL for rows shaped as `FoldableEmailEvent`: the bus batch's JSON (parameter `$1`) or a slice of
 * the stored timeline (the rebuild). Each event yields claims keyed in `stats_folded_events`: a
 * recipient's lifecycle stage once (`<recipient>:<type>`), an engagement event once (`ev:<id>`),
 * a recipient's first open, first non-prefetched open and first click, a message's acceptance
 * (and its acceptance per recipient domain, which the recipient-domain rows count instead);
 * a redelivered event claims nothing new. Every count lands in the quarter hour the message was
 * accepted (`created_at`), however late its event arrives.
 */
export function emailFoldStatement(source: string): string {
  // The latencies of a group of facts as one sketch; the groups' sketches merge by addition.
  const sketch = (column: string) =>
    `email.stats_sketch_of(array_agg(email.stats_sketch_slot(${column})) FILTER (WHERE ${column} IS NOT NULL))`;
  const merged = (column: string) => `email.stats_sketch_sum(${column})`;
  const figures = `${EMAIL_STATS_COUNTS.map((name) => `coalesce(sum(n) FILTER (WHERE ${FIGURES[name]}), 0)::int AS ${name}`).join(',\n        ')},
        ${merged('processing')} AS processing_ms, ${merged('delivery')} AS delivery_ms,
        ${merged('total')} AS total_ms`;
  const columns = [...EMAIL_STATS_COUNTS, 'processing_ms', 'delivery_ms', 'total_ms'];
  const updates = [
    ...EMAIL_STATS_COUNTS.map((name) => `${name} = r.${name} + excluded.${name}`),
    ...['processing_ms', 'delivery_ms', 'total_ms'].map(
      (name) => `${name} = email.stats_sketch_add(r.${name}, excluded.${name})`,
    ),
  ].join(', ');
  const upsert = (
    table: string,
    from: string,
  ) => `INSERT INTO ${table} AS r (workspace_id, dimension,
        value, bucket, ${columns.join(', ')})
      SELECT * FROM ${from} ORDER BY workspace_id, dimension, value, bucket
      ON CONFLICT (workspace_id, dimension, value, bucket) DO UPDATE SET ${updates}`;
  return `WITH incoming AS (
      SELECT * FROM (${source}) s
      WHERE type IN (${EMAIL_STATS_EVENT_TYPES.map((type) => `'${type}'`).join(', ')})
    ), candidates AS (
      SELECT key, kind, i.* FROM incoming i
      CROSS JOIN LATERAL (
        SELECT CASE WHEN i.type IN ${EACH_EVENT} THEN 'ev:' || i.event_id
          ELSE coalesce(i.recipient_id, i.message_id) || ':' || i.type END, i.type
        UNION ALL SELECT i.message_id || ':sends_accepted', 'sends_accepted'
          WHERE i.type = 'email.accepted'
        UNION ALL SELECT i.message_id || ':sends_to:' || lower(substring(rc.email FROM '[^@]*$')),
          'domain_send'
          FROM email.recipients rc WHERE rc.id = i.recipient_id AND i.type = 'email.accepted'
        UNION ALL SELECT i.recipient_id || ':unique_open', 'unique_open'
          WHERE i.type = 'email.opened' AND i.recipient_id IS NOT NULL
        UNION ALL SELECT i.recipient_id || ':unique_human_open', 'unique_human_open'
          WHERE i.type = 'email.opened' AND NOT i.prefetched AND i.recipient_id IS NOT NULL
        UNION ALL SELECT i.recipient_id || ':unique_click', 'unique_click'
          WHERE i.type = 'email.clicked' AND i.recipient_id IS NOT NULL
        -- The first open, human open and click per value of each client facet.
        UNION ALL SELECT i.recipient_id || ':unique_' || u.what || '@' || f.facet || ':' || f.value,
          'unique_' || u.what || '@' || f.facet
          FROM (SELECT CASE WHEN i.type IN ('email.opened', 'email.clicked')
            THEN ${CLIENT_OF('i')} END) AS cl (client)
          CROSS JOIN LATERAL (VALUES ('email_client', cl.client[1]), ('os', cl.client[2]),
            ('device_type', cl.client[3])) AS f (facet, value)
          CROSS JOIN LATERAL (VALUES ('open', i.type = 'email.opened'),
            ('human_open', i.type = 'email.opened' AND NOT i.prefetched),
            ('click', i.type = 'email.clicked')) AS u (what, applies)
          WHERE i.type IN ('email.opened', 'email.clicked') AND i.recipient_id IS NOT NULL
            AND u.applies AND f.value IS NOT NULL
      ) AS c (key, kind)
    ), claimed AS (
      INSERT INTO email.stats_folded_events (key)
      SELECT key FROM candidates ORDER BY key
      ON CONFLICT DO NOTHING RETURNING key
    ), picked AS (
      -- One event per new claim, the earliest: a key twice in the batch is claimed once. Deduped
      -- after the join, so the planner sees the batch's size there and hashes the join.
      SELECT DISTINCT ON (key) c.* FROM claimed JOIN candidates c USING (key)
      ORDER BY key, c.occurred_at
    ), facts AS (
      SELECT m.workspace_id, date_bin('15 minutes', m.created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS bucket,
        c.kind, c.bounce_type, c.bounce_code, c.feedback_type, c.prefetched, m.tags, m.category,
        m.sender_domain, m.template_id, m.broadcast_id,
        cl.client[1] AS email_client, cl.client[2] AS os, cl.client[3] AS device_type,
        -- After the last @, as events read it (mailbox-providers.ts).
        lower(nullif(substring(rc.email FROM '@([^@]*)$'), '')) AS recipient_domain,
        CASE WHEN c.kind = 'email.processed' THEN ${ms('m.created_at', 'c.occurred_at')} END AS processing,
        CASE WHEN c.kind = 'email.delivered' AND rc.processed_at IS NOT NULL
          THEN ${ms('rc.processed_at', 'c.occurred_at')} END AS delivery,
        CASE WHEN c.kind = 'email.delivered' THEN ${ms('m.created_at', 'c.occurred_at')} END AS total
      FROM picked c
      JOIN email.messages m ON m.id = c.message_id
      LEFT JOIN email.recipients rc ON rc.id = c.recipient_id
      -- Opens and clicks (and the first of each per client facet) by the client that made them.
      CROSS JOIN LATERAL (
        SELECT CASE WHEN c.kind IN ('email.opened', 'email.clicked') OR c.kind ~ ${FACET_UNIQUE}
          THEN ${CLIENT_OF('c')} END
      ) AS cl (client)
    ), grouped AS (
      -- Facts alike in every dimension are expanded once, with their number and their
      -- latencies as one sketch: the messages of a broadcast, or of one template, differ in
      -- little but their recipient.
      SELECT workspace_id, bucket, kind, bounce_type, bounce_code, feedback_type, prefetched,
        tags, category, sender_domain, template_id, broadcast_id, recipient_domain,
        email_client, os, device_type, count(*) AS n, ${sketch('processing')} AS processing, ${sketch('delivery')} AS delivery,
        ${sketch('total')} AS total
      FROM facts
      GROUP BY workspace_id, bucket, kind, bounce_type, bounce_code, feedback_type, prefetched,
        tags, category, sender_domain, template_id, broadcast_id, recipient_domain,
        email_client, os, device_type
    ), keyed AS (
      SELECT f.*, scoped.dimension, d.value
      FROM grouped f
      CROSS JOIN LATERAL (
        VALUES ('', ''), ('category', f.category), ('sending_domain', f.sender_domain),
          ('recipient_domain', f.recipient_domain),
          ('mailbox_provider', email.mailbox_provider_of(f.recipient_domain)),
          ('email_client', f.email_client), ('os', f.os), ('device_type', f.device_type),
          ('template', f.template_id),
          ('broadcast', f.broadcast_id),
          ('bounce_code', CASE WHEN f.kind = 'email.bounced' THEN f.bounce_code END),
          ('complaint_type', CASE WHEN f.kind = 'email.complained'
            THEN coalesce(f.feedback_type, 'other') END)
        UNION ALL SELECT DISTINCT 'tag', t->>'name' || ':' || (t->>'value')
          FROM jsonb_array_elements(f.tags) t
        -- The tag=name filter: any value of the tag, a message counted once.
        UNION ALL SELECT DISTINCT 'tag_name', t->>'name' FROM jsonb_array_elements(f.tags) t
      ) AS d (dimension, value)
      -- Every breakdown also per category ('tag@marketing'): breakdowns take a category filter.
      CROSS JOIN LATERAL (
        SELECT d.dimension UNION ALL SELECT d.dimension || '@' || f.category
          WHERE d.dimension NOT IN ('', 'category', 'tag_name')
      ) AS scoped (dimension)
      WHERE d.value IS NOT NULL
        -- A facet's first open or click counts in that facet's rows only.
        AND (f.kind !~ ${FACET_UNIQUE}
          OR split_part(scoped.dimension, '@', 1) = split_part(f.kind, '@', 2))
    ), deltas AS (
      SELECT workspace_id, dimension, value, bucket, ${figures}
      FROM keyed GROUP BY workspace_id, dimension, value, bucket
    ), daily_deltas AS (
      SELECT workspace_id, dimension, value,
        date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket, ${figures}
      FROM keyed GROUP BY 1, 2, 3, 4
    ), quarter_hourly AS (
      ${upsert('email.email_stats_rollups', 'deltas')}
    ), daily AS (
      ${upsert('email.email_stats_daily_rollups', 'daily_deltas')}
    ), freshness AS (
      INSERT INTO email.stats_freshness AS r (stream, data_as_of)
      SELECT 'email', max(occurred_at) FROM incoming HAVING count(*) > 0
      ON CONFLICT (stream) DO UPDATE SET
        data_as_of = greatest(r.data_as_of, excluded.data_as_of), version = r.version + 1
    )
    SELECT count(*) FILTER (WHERE kind LIKE 'email.%')::int AS folded
    FROM picked`;
}

/** The columns of a `FoldableEmailEvent` read from JSON. */
export const FOLDABLE_COLUMNS = `event_id text, message_id text, recipient_id text, type text,
  occurred_at timestamptz, bounce_type text, bounce_code text, feedback_type text, prefetched boolean,
  user_agent text, client text[]`;

/** Folds the bus batch `events`; answers how many events counted. */
export async function foldEmailEvents(
  runner: SqlRunner,
  events: readonly FoldableEmailEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = rowsOf<{ folded: number }>(
    await runner.query(
      emailFoldStatement(`SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${FOLDABLE_COLUMNS})`),
      [JSON.stringify(events)],
    ),
  );
  return rows[0]?.folded ?? 0;
}
