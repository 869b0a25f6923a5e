import type { Verification } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';
import type { VerificationRow } from './verifications.repository';

/** The SDK's Verification; one still `pending` past `expires_at` reads `expired`. */
export function toVerificationDto(row: VerificationRow, now = new Date()): Verification {
  const lapsed = row.status === 'pending' && new Date(row.expires_at) <= now;
  return {
    id: row.id,
    status: lapsed ? 'expired' : row.status,
    reason: lapsed ? 'ttl_elapsed' : row.reason,
    to: toOf(row),
    channels: row.channels.map((channel) => ({ channel })),
    last_channel: row.last_channel,
    metadata: row.metadata ?? {},
    expires_at: new Date(row.expires_at).toISOString(),
    verified_at: row.verified_at ? new Date(row.verified_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function toOf(row: VerificationRow): Verification['to'] {
  return {
    ...(row.email ? { email: row.email } : {}),
    ...(row.phone_number ? { phone_number: row.phone_number } : {}),
  };
}

export type VerifyEventType =
  | 'verify.verification.created'
  | 'verify.verification.verified'
  | 'verify.verification.failed'
  | 'verify.attempt.sent'
  | 'verify.attempt.delivered'
  | 'verify.attempt.undelivered';

/** A `verify.*` event: the SDK's EventVerifyBase and the type's own fields, dated `at`. */
export function verifyEvent(
  type: VerifyEventType,
  row: VerificationRow,
  at: Date,
  data: Record<string, unknown>,
): OutboxEvent {
  return {
    id: newId('ev'),
    type,
    workspaceId: row.workspace_id,
    timestamp: at.toISOString(),
    data: {
      verification_id: row.id,
      workspace_id: row.workspace_id,
      to: toOf(row),
      metadata: row.metadata,
      ...data,
    },
  };
}
