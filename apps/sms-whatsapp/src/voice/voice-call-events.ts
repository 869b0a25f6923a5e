import { VoiceCallEventTypes } from '@switchboard/contracts';
import type { VoiceCall, VoiceCallEndedData, VoiceCallEventBase } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';
import type { MergedReport } from './voice-call-report';

function event<D>(type: string, call: VoiceCall, timestamp: string, data: D): OutboxEvent<D> {
  return {
    id: newId('ev', Date.parse(timestamp)),
    type,
    workspaceId: call.workspace_id,
    timestamp,
    data,
  };
}

/**
 * The `voice_call.*` events a report passed, in lifecycle order, with the SDK's payloads:
 * `initiated` at `started_at`, `answered` at `answered_at`, `ended` (with its outcome) when the
 * call ended (or when it was reported ended, for a call without a recorded end).
 */
export function voiceCallEvents(merged: MergedReport, receivedAt: Date): OutboxEvent[] {
  const { call } = merged;
  const base: VoiceCallEventBase = {
    call_id: call.id,
    session_id: call.session_id,
    workspace_id: call.workspace_id,
    direction: call.direction,
    from: call.from,
    to: call.to,
  };
  const events: OutboxEvent[] = [];
  if (merged.initiated)
    events.push(event(VoiceCallEventTypes.Initiated, call, call.started_at, base));
  if (merged.answered && call.answered_at)
    events.push(event(VoiceCallEventTypes.Answered, call, call.answered_at, base));
  if (merged.ended) {
    const ended: VoiceCallEndedData = {
      ...base,
      status: call.status,
      sip_response_code: call.sip_response_code,
      duration_ms: call.duration_ms ?? 0,
      billable_ms: call.billable_ms ?? 0,
    };
    events.push(
      event(VoiceCallEventTypes.Ended, call, call.ended_at ?? receivedAt.toISOString(), ended),
    );
  }
  return events;
}
