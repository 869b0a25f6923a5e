/**
 * Voice call records (the SDK's `bird.voice`): Switchboard places no calls; the operator's SIP
 * platform reports each leg as it progresses (`POST /admin/v1/workspaces/{id}/voice/calls`) and
 * workspaces read them. Served by the sms-whatsapp service.
 */
export const VoiceSubjects = {
  ListCalls: 'sms_whatsapp.voice_call.list',
  GetCall: 'sms_whatsapp.voice_call.get',
  /** Operator: a report of a call's progress. */
  ReportCall: 'sms_whatsapp.voice_call.report',
} as const;

export const VOICE_CALL_DIRECTIONS = ['inbound', 'outbound'] as const;
export type VoiceCallDirection = (typeof VOICE_CALL_DIRECTIONS)[number];

/** A call in flight: before pickup, then connected. */
export const VOICE_CALL_ACTIVE_STATUSES = ['ringing', 'in_progress'] as const;
/** How an ended call came out (`busy` and `canceled` are reserved: reported as `failed`). */
export const VOICE_CALL_FINAL_STATUSES = [
  'answered',
  'no_answer',
  'busy',
  'canceled',
  'failed',
  'rejected',
  'unknown',
] as const;
export const VOICE_CALL_STATUSES = [
  ...VOICE_CALL_FINAL_STATUSES,
  ...VOICE_CALL_ACTIVE_STATUSES,
] as const;
export type VoiceCallStatus = (typeof VOICE_CALL_STATUSES)[number];

export const VOICE_CALL_REJECTION_REASONS = [
  'source_not_allowed',
  'caller_id_not_verified',
  'routing_not_configured',
  'no_route_found',
  'destination_blocked',
  'destination_not_enabled',
  'insufficient_balance',
  'daily_spend_exceeded',
  'concurrent_calls_exceeded',
  'calls_per_second_exceeded',
  'call_not_permitted',
  'number_ownership_not_verified',
] as const;
export type VoiceCallRejectionReason = (typeof VOICE_CALL_REJECTION_REASONS)[number];

export type VoiceCallRoute =
  | { type: 'reject' }
  | { type: 'trunk'; trunk_id: string }
  | { type: 'forward'; forward_to: string; forward_as: 'dialed_number' | 'calling_number' };

export interface VoiceCallActor {
  id: string;
  type: string;
  display_name?: string | null;
}

export interface VoiceCallTag {
  name: string;
  value: string;
}

export interface VoiceMediaQuality {
  mos: number;
  jitter_ms: number;
  packet_loss_pct: number;
  round_trip_time_ms: number;
}

export interface VoiceCallCost {
  amount: string;
  currency_code: string;
  outbound_amount: string | null;
  inbound_amount: string | null;
  call_handling_amount: string | null;
  recording_amount: string | null;
  transcription_amount: string | null;
}

/** The SDK's `VoiceCall`; optional members are left out when the record has none. */
export interface VoiceCall {
  id: string;
  session_id: string | null;
  workspace_id: string;
  direction: VoiceCallDirection;
  from: string;
  to: string;
  actor?: VoiceCallActor;
  sip_trunk_id: string | null;
  status: VoiceCallStatus;
  sip_response_code: number | null;
  rejection_reason?: VoiceCallRejectionReason;
  route?: VoiceCallRoute;
  tags?: VoiceCallTag[];
  started_at: string;
  answered_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  pdd_ms?: number;
  billable_ms: number | null;
  media_quality?: VoiceMediaQuality;
  cost?: VoiceCallCost;
}

/** A report from the SIP platform: a `VoiceCall` without `id` (the gateway checked its shape). */
export type VoiceCallReport = Omit<
  VoiceCall,
  | 'id'
  | 'workspace_id'
  | 'session_id'
  | 'sip_trunk_id'
  | 'sip_response_code'
  | 'answered_at'
  | 'ended_at'
  | 'duration_ms'
  | 'billable_ms'
> & {
  /** When given, the workspace the report is posted for. */
  workspace_id?: string;
  session_id?: string | null;
  sip_trunk_id?: string | null;
  sip_response_code?: number | null;
  answered_at?: string | null;
  ended_at?: string | null;
  duration_ms?: number | null;
  billable_ms?: number | null;
};

export interface ReportVoiceCallRequest {
  workspace_id: string;
  call: VoiceCallReport;
}

/** `created` false: a report of a leg already recorded, which it updated (200). */
export interface ReportVoiceCallReply {
  created: boolean;
  call: VoiceCall;
}

export interface ListVoiceCallsRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  direction?: VoiceCallDirection;
  /** Absent: the ended calls only. */
  status?: VoiceCallStatus[];
  session_id?: string;
  sip_trunk_id?: string;
  from?: string;
  to?: string;
  number?: string;
  /** `name` or `name:value`; every one must match. */
  tag?: string[];
  started_after?: string;
  started_before?: string;
}

export interface VoiceCallIdRequest {
  call_id: string;
}
