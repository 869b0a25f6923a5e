import { phoneNumber, VOICE_CALL_ACTIVE_STATUSES } from '@switchboard/contracts';
import type {
  ErrorDetail,
  VoiceCall,
  VoiceCallCost,
  VoiceCallReport,
  VoiceCallRoute,
  VoiceCallStatus,
  VoiceCallTag,
} from '@switchboard/contracts';
import { parseTimestamp } from '@switchboard/contracts';

const TAG_PART = /^[A-Za-z0-9_-]+$/;
const MAX_TAGS = 5;

/** 0 before pickup, 1 connected, 2 ended: a report never moves a call backwards. */
export function stageOf(status: VoiceCallStatus): 0 | 1 | 2 {
  if (status === 'ringing') return 0;
  return (VOICE_CALL_ACTIVE_STATUSES as readonly string[]).includes(status) ? 1 : 2;
}

/**
 * A call's tags as the SDK reads them off the INVITE: a tag whose name or value breaks the rules
 * is dropped, a repeated name keeps its first value, anything past the first five is ignored.
 */
export function keptTags(tags: VoiceCallTag[] | undefined): VoiceCallTag[] | undefined {
  if (!tags) return undefined;
  const kept: VoiceCallTag[] = [];
  for (const tag of tags) {
    if (kept.length === MAX_TAGS) break;
    const valid =
      TAG_PART.test(tag.name) &&
      tag.name.length <= 32 &&
      TAG_PART.test(tag.value) &&
      tag.value.length <= 64;
    if (valid && !kept.some((seen) => seen.name === tag.name)) kept.push(tag);
  }
  return kept.length ? kept : undefined;
}

/** A number in E.164: SIP platforms also write the international prefix as 00. */
const e164 = (value: string) => phoneNumber(value.trim().replace(/^00/, '+'));

const instant = (value: string | null | undefined) =>
  value === null || value === undefined ? value : parseTimestamp(value);

/**
 * The report with its numbers in E.164 and its instants parsed, or every problem with it. An
 * in-flight status carries no end, durations or cost (they are null until the call ends).
 */
export function checkedReport(
  report: VoiceCallReport,
  workspaceId: string,
): VoiceCallReport | ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (report.workspace_id != null && report.workspace_id !== workspaceId)
    problems.push({ param: 'workspace_id', message: 'must be the workspace of the path' });
  const from = e164(report.from);
  const to = e164(report.to);
  if (!from) problems.push({ param: 'from', message: 'must be a phone number in E.164' });
  if (!to) problems.push({ param: 'to', message: 'must be a phone number in E.164' });
  const times: Record<string, Date | null | undefined> = {};
  for (const field of ['started_at', 'answered_at', 'ended_at'] as const) {
    const parsed = instant(report[field]);
    if (parsed === undefined && report[field] !== undefined)
      problems.push({ param: field, message: 'must be an RFC 3339 date-time with a time zone' });
    times[field] = parsed;
  }
  const { started_at: started, answered_at: answered, ended_at: ended } = times;
  if (started && answered && answered < started)
    problems.push({ param: 'answered_at', message: 'must not be before started_at' });
  if (started && ended && ended < started)
    problems.push({ param: 'ended_at', message: 'must not be before started_at' });
  if (stageOf(report.status) < 2) {
    for (const field of ['ended_at', 'duration_ms', 'billable_ms', 'cost'] as const)
      if (report[field] !== undefined && report[field] !== null)
        problems.push({ param: field, message: `a call still ${report.status} has no ${field}` });
  }
  const route = report.route && checkedRoute(report.route, problems);
  if (problems.length) return problems;
  const iso = (value: Date | null | undefined) => (value ? value.toISOString() : value);
  return {
    ...report,
    from: from!,
    to: to!,
    started_at: started!.toISOString(),
    answered_at: iso(answered),
    ended_at: iso(ended),
    ...(route ? { route } : {}),
    ...(report.cost ? { cost: withEveryComponent(report.cost) } : {}),
  };
}

/**
 * The route with the fields its type requires (the SDK's `VoiceCallInboundRoute`: a trunk names
 * its trunk, a forward its E.164 destination and presented caller) and no others.
 */
function checkedRoute(route: VoiceCallRoute, problems: ErrorDetail[]): VoiceCallRoute | undefined {
  const given = route as Partial<Record<'trunk_id' | 'forward_to' | 'forward_as', string | null>>;
  if (route.type === 'reject') return { type: 'reject' };
  if (route.type === 'trunk') {
    if (!given.trunk_id) problems.push({ param: 'route.trunk_id', message: 'is required' });
    return { type: 'trunk', trunk_id: given.trunk_id as string };
  }
  const forwardTo = given.forward_to ? e164(given.forward_to) : undefined;
  if (!forwardTo)
    problems.push({ param: 'route.forward_to', message: 'must be a phone number in E.164' });
  if (!given.forward_as) problems.push({ param: 'route.forward_as', message: 'is required' });
  return {
    type: 'forward',
    forward_to: forwardTo as string,
    forward_as: given.forward_as as 'dialed_number' | 'calling_number',
  };
}

/** The SDK's `VoiceCallCost` names every component: one a report leaves out is null. */
function withEveryComponent(cost: VoiceCallCost): VoiceCallCost {
  return {
    amount: cost.amount,
    currency_code: cost.currency_code,
    outbound_amount: cost.outbound_amount ?? null,
    inbound_amount: cost.inbound_amount ?? null,
    call_handling_amount: cost.call_handling_amount ?? null,
    recording_amount: cost.recording_amount ?? null,
    transcription_amount: cost.transcription_amount ?? null,
  };
}

/** What a report changed: the call as it now stands and which events it passed. */
export interface MergedReport {
  call: VoiceCall;
  initiated: boolean;
  answered: boolean;
  ended: boolean;
}

/**
 * A checked report applied to the leg as recorded (`existing`, or none for its first report).
 * The report's fields win where it has them (a null is no news); its status only when it is not
 * behind the recorded one; tags are the first report's (a call is labelled when it is placed).
 */
export function mergeReport(
  existing: VoiceCall | undefined,
  report: VoiceCallReport,
  identity: { id: string; workspace_id: string },
  receivedAt: Date,
): MergedReport {
  // The report's value where it has one, else the recorded one. A null is no news (a report sent
  // while the call was in flight, arriving late or again): it never erases what is recorded.
  const pick = <K extends keyof VoiceCallReport & keyof VoiceCall>(
    key: K,
  ): VoiceCall[K] | undefined =>
    (report[key] !== undefined && report[key] !== null ? report[key] : existing?.[key]) as
      VoiceCall[K] | undefined;
  // The SDK's VoiceCallStatus: busy and canceled "are reported as failed today".
  const reported =
    report.status === 'busy' || report.status === 'canceled' ? 'failed' : report.status;
  const behind = existing !== undefined && stageOf(reported) < stageOf(existing.status);
  const status = behind ? existing.status : reported;
  const stage = stageOf(status);
  const connected = stage === 1 || status === 'answered';
  const reportedEnd = stage === 2 ? (pick('ended_at') ?? null) : null;
  // A connected call reported without its answer time was answered by now (and by its end).
  const answeredBy =
    reportedEnd && Date.parse(reportedEnd) < receivedAt.getTime()
      ? reportedEnd
      : receivedAt.toISOString();
  const answeredAt = pick('answered_at') ?? (connected ? answeredBy : null);
  const startedAt = existing?.started_at ?? report.started_at;
  const call: VoiceCall = {
    id: identity.id,
    session_id: pick('session_id') ?? null,
    workspace_id: identity.workspace_id,
    direction: report.direction,
    from: report.from,
    to: report.to,
    sip_trunk_id: pick('sip_trunk_id') ?? null,
    status,
    sip_response_code: pick('sip_response_code') ?? null,
    started_at: startedAt,
    answered_at: answeredAt,
    ended_at: null,
    duration_ms: null,
    billable_ms: null,
  };
  if (stage === 2) {
    const endedAt = reportedEnd;
    const span = (from: string | null) =>
      from && endedAt ? Math.max(0, Date.parse(endedAt) - Date.parse(from)) : null;
    call.ended_at = endedAt;
    call.duration_ms = pick('duration_ms') ?? span(startedAt);
    call.billable_ms = pick('billable_ms') ?? (answeredAt ? span(answeredAt) : 0);
    const cost = pick('cost');
    if (cost) call.cost = cost;
  }
  const optional = ['actor', 'rejection_reason', 'route', 'pdd_ms', 'media_quality'] as const;
  for (const key of optional) {
    const value = pick(key);
    if (value !== undefined && value !== null) Object.assign(call, { [key]: value });
  }
  const tags = existing ? existing.tags : keptTags(report.tags);
  if (tags) call.tags = tags;
  return {
    call,
    initiated: existing === undefined,
    answered: !existing?.answered_at && call.answered_at !== null,
    ended: stage === 2 && (existing === undefined || stageOf(existing.status) < 2),
  };
}
