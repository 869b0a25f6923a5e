import type { VoiceCallDirection, VoiceCallStatus } from './voice';

/** What every `voice_call.*` event carries (the SDK's EventVoiceBase). */
export interface VoiceCallEventBase {
  call_id: string;
  session_id: string | null;
  workspace_id: string;
  direction: VoiceCallDirection;
  from: string;
  to: string;
}

/** `voice_call.ended` adds the outcome. */
export interface VoiceCallEndedData extends VoiceCallEventBase {
  status: VoiceCallStatus;
  sip_response_code: number | null;
  duration_ms: number;
  billable_ms: number;
}

export const VoiceCallEventTypes = {
  Initiated: 'voice_call.initiated',
  Answered: 'voice_call.answered',
  Ended: 'voice_call.ended',
} as const;
