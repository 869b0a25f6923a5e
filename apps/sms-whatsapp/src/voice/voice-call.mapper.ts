import type { VoiceCall } from '@switchboard/contracts';

/** A stored leg (bigint columns come back from pg as strings). */
export interface VoiceCallRow {
  id: string;
  workspace_id: string;
  session_id: string | null;
  direction: VoiceCall['direction'];
  from_number: string;
  to_number: string;
  actor: VoiceCall['actor'] | null;
  sip_trunk_id: string | null;
  status: VoiceCall['status'];
  sip_response_code: number | null;
  rejection_reason: VoiceCall['rejection_reason'] | null;
  route: VoiceCall['route'] | null;
  tags: VoiceCall['tags'] | null;
  started_at: Date | string;
  answered_at: Date | string | null;
  ended_at: Date | string | null;
  duration_ms: string | number | null;
  pdd_ms: string | number | null;
  billable_ms: string | number | null;
  media_quality: VoiceCall['media_quality'] | null;
  cost: VoiceCall['cost'] | null;
}

/** The columns a write sets, `id` first, in the order of `voiceCallParams`. */
export const VOICE_CALL_COLUMNS = [
  'id',
  'workspace_id',
  'session_id',
  'direction',
  'from_number',
  'to_number',
  'actor',
  'sip_trunk_id',
  'status',
  'sip_response_code',
  'rejection_reason',
  'route',
  'tags',
  'started_at',
  'answered_at',
  'ended_at',
  'duration_ms',
  'pdd_ms',
  'billable_ms',
  'media_quality',
  'cost',
] as const;

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

export function voiceCallParams(call: VoiceCall): unknown[] {
  return [
    call.id,
    call.workspace_id,
    call.session_id,
    call.direction,
    call.from,
    call.to,
    json(call.actor),
    call.sip_trunk_id,
    call.status,
    call.sip_response_code,
    call.rejection_reason ?? null,
    json(call.route),
    json(call.tags),
    call.started_at,
    call.answered_at,
    call.ended_at,
    call.duration_ms,
    call.pdd_ms ?? null,
    call.billable_ms,
    json(call.media_quality),
    json(call.cost),
  ];
}

const iso = (value: Date | string) =>
  (value instanceof Date ? value : new Date(value)).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));
const count = (value: string | number | null) => (value === null ? null : Number(value));

/** The SDK's `VoiceCall`; the optional members the record lacks are left out. */
export function toVoiceCall(row: VoiceCallRow): VoiceCall {
  const call: VoiceCall = {
    id: row.id,
    session_id: row.session_id,
    workspace_id: row.workspace_id,
    direction: row.direction,
    from: row.from_number,
    to: row.to_number,
    sip_trunk_id: row.sip_trunk_id,
    status: row.status,
    sip_response_code: row.sip_response_code,
    started_at: iso(row.started_at),
    answered_at: isoOrNull(row.answered_at),
    ended_at: isoOrNull(row.ended_at),
    duration_ms: count(row.duration_ms),
    billable_ms: count(row.billable_ms),
  };
  if (row.actor) call.actor = row.actor;
  if (row.rejection_reason) call.rejection_reason = row.rejection_reason;
  if (row.route) call.route = row.route;
  if (row.tags) call.tags = row.tags;
  if (row.pdd_ms !== null) call.pdd_ms = Number(row.pdd_ms);
  if (row.media_quality) call.media_quality = row.media_quality;
  if (row.cost) call.cost = row.cost;
  return call;
}
