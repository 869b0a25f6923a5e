import type { SmsSuppression } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';
import type { SmsSuppressionRow } from './sms-suppressions.repository';

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

export function toSmsSuppressionDto(row: SmsSuppressionRow): SmsSuppression {
  return {
    id: row.id,
    destination: row.destination,
    originator: row.originator,
    reason: row.reason as SmsSuppression['reason'],
    origin: row.origin as SmsSuppression['origin'],
    applies_to: row.applies_to as SmsSuppression['applies_to'],
    blocking: row.ended_at === null,
    source_sms_id: row.source_sms_id,
    effective_at: iso(row.effective_at),
    ended_at: isoOrNull(row.ended_at),
    ended_reason: row.ended_reason as SmsSuppression['ended_reason'],
    ended_effective_at: isoOrNull(row.ended_effective_at),
    source_end_sms_id: row.source_end_sms_id,
    created_at: iso(row.created_at),
    last_asserted_at: iso(row.last_asserted_at),
  };
}

/** `sms_suppression.created` (the SDK's EventSmsSuppressionCreated), stamped with `effective_at`. */
export function smsSuppressionCreatedEvent(row: SmsSuppressionRow): OutboxEvent {
  const timestamp = iso(row.effective_at);
  return {
    id: newId('ev', new Date(timestamp).getTime()),
    type: 'sms_suppression.created',
    workspaceId: row.workspace_id,
    timestamp,
    data: {
      suppression_id: row.id,
      destination: row.destination,
      originator: row.originator,
      reason: row.reason,
      workspace_id: row.workspace_id,
    },
  };
}
