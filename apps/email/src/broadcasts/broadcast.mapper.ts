import type {
  EmailAddress,
  EmailBroadcast,
  EmailBroadcastStatus,
  EmailCategory,
  EmailTag,
} from '@switchboard/contracts';

export type BroadcastFailureReason = NonNullable<EmailBroadcast['failure_reason']>;

export interface BroadcastRow {
  id: string;
  workspace_id: string;
  from_email: string | null;
  from_name: string | null;
  audience_id: string | null;
  template_id: string | null;
  template_version_id: string | null;
  category: EmailCategory;
  ip_pool_id: string | null;
  reply_to: EmailAddress[];
  headers: Record<string, string>;
  tags: EmailTag[];
  metadata: Record<string, unknown> | null;
  track_opens: boolean;
  track_clicks: boolean;
  status: EmailBroadcastStatus;
  failure_reason: BroadcastFailureReason | null;
  failure_detail: string | null;
  recipient_count: number;
  snapshot_at: Date | null;
  prepared_after: string | null;
  prepared_at: Date | null;
  created_at: Date;
  scheduled_at: Date | null;
  started_at: Date | null;
  sent_at: Date | null;
  canceled_at: Date | null;
}

export const BROADCAST_COLUMNS = `id, workspace_id, from_email, from_name, audience_id, template_id,
  template_version_id, category, ip_pool_id, reply_to, headers, tags, metadata, track_opens,
  track_clicks, status, failure_reason, failure_detail, recipient_count, snapshot_at,
  prepared_after, prepared_at, created_at, scheduled_at, started_at, sent_at, canceled_at`;

/** The exact counters of a broadcast, from the recipients of its messages. */
export interface BroadcastCounters {
  sent_count: number;
  delivered_count: number;
  bounced_count: number;
  complained_count: number;
  open_count: number;
  click_count: number;
  unique_opens_non_prefetched: number;
  unique_clicks: number;
  out_of_band_bounces: number;
  delivered_recipients: number;
}

export const NO_COUNTERS: BroadcastCounters = {
  sent_count: 0,
  delivered_count: 0,
  bounced_count: 0,
  complained_count: 0,
  open_count: 0,
  click_count: 0,
  unique_opens_non_prefetched: 0,
  unique_clicks: 0,
  out_of_band_bounces: 0,
  delivered_recipients: 0,
};

/**
 * Which read a broadcast answers: a single read (headers, counters, body sizes), a list row
 * (counters once it has any, no headers), or a mutation's answer (headers, no counters).
 */
export type BroadcastView =
  | { kind: 'single'; counters: BroadcastCounters; sizes?: { html: number; text: number } }
  | { kind: 'list'; counters?: BroadcastCounters }
  | { kind: 'mutation' };

export function toBroadcastDto(row: BroadcastRow, view: BroadcastView): EmailBroadcast {
  const broadcast: EmailBroadcast = {
    id: row.id,
    category: row.category,
    status: row.status,
    failure_reason: row.status === 'failed' ? row.failure_reason : null,
    failure_detail: row.status === 'failed' ? row.failure_detail : null,
    recipient_count: row.recipient_count,
    track_opens: row.track_opens,
    track_clicks: row.track_clicks,
    tags: row.tags,
    metadata: row.metadata ?? {},
    template: row.template_id ? { id: row.template_id, version_id: row.template_version_id } : null,
    created_at: row.created_at.toISOString(),
    sent_at: row.sent_at ? row.sent_at.toISOString() : null,
  };
  if (row.from_email)
    broadcast.from = row.from_name
      ? { email: row.from_email, name: row.from_name }
      : { email: row.from_email };
  if (row.audience_id) broadcast.audience_id = row.audience_id;
  if (row.ip_pool_id) broadcast.ip_pool_id = row.ip_pool_id;
  if (row.reply_to.length) broadcast.reply_to = row.reply_to;
  if (view.kind !== 'list') broadcast.headers = row.headers;
  if (row.scheduled_at && row.status === 'scheduled')
    Object.assign(broadcast, { scheduled_at: row.scheduled_at.toISOString() });
  if (row.started_at) Object.assign(broadcast, { started_at: row.started_at.toISOString() });
  if (row.canceled_at) Object.assign(broadcast, { canceled_at: row.canceled_at.toISOString() });
  if (view.kind === 'single') {
    Object.assign(broadcast, view.counters, { next: nextOf(row) });
    if (view.sizes)
      Object.assign(broadcast, { html_bytes: view.sizes.html, text_bytes: view.sizes.text });
  } else if (view.kind === 'list' && view.counters) Object.assign(broadcast, view.counters);
  return broadcast;
}

type NextStep = NonNullable<EmailBroadcast['next']>[number];

/** What to do next: send a draft, wait while it is under way, nothing once it is final. */
function nextOf(row: BroadcastRow): NextStep[] {
  const step = (kind: string, description: string, operation?: string): NextStep =>
    operation
      ? { kind, description, operation, params: { broadcast_id: row.id } }
      : { kind, description };
  switch (row.status) {
    case 'draft':
      return [step('operation', 'Send the broadcast, now or at a time', 'sendEmailBroadcast')];
    case 'scheduled':
    case 'accepted':
    case 'sending':
    case 'canceling':
      return [step('wait', 'The broadcast is under way; read it again later')];
    case 'sent':
    case 'canceled':
    case 'failed':
      return [];
  }
}
