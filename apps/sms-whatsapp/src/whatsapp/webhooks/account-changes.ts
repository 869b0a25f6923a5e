import type { MetaStatus } from './meta-webhook';
import type { NumberChange, NumberState } from './webhook-accounts.repository';

/**
 * What a `phone_number_quality_update` changes on the number, as it stands now: the messaging
 * limit Meta moved it to, and `flagged` while Meta flags its quality (back to `connected` when it
 * unflags it). Nothing when the number already reads so: a retried webhook changes nothing.
 */
export function qualityChanges(
  number: NumberState,
  value: Record<string, unknown>,
): NumberChange[] {
  const changes: NumberChange[] = [];
  const event = typeof value.event === 'string' ? value.event.toLowerCase() : undefined;
  const limit =
    typeof value.current_limit === 'string' ? value.current_limit.toLowerCase() : undefined;
  if (limit && limit !== number.messaging_limit) {
    changes.push({
      messagingLimit: limit,
      event: {
        type: 'whatsapp_number.messaging_limit_updated',
        summary: number.messaging_limit
          ? `Messaging limit changed from ${number.messaging_limit} to ${limit}`
          : `Messaging limit is ${limit}`,
        metadata: {
          ...(number.messaging_limit ? { from: number.messaging_limit } : {}),
          to: limit,
          ...(event ? { trigger: event } : {}),
        },
      },
    });
  }
  const status =
    event === 'flagged'
      ? 'flagged'
      : event === 'unflagged' && number.status === 'flagged'
        ? 'connected'
        : undefined;
  if (status && status !== number.status) {
    changes.push({
      status,
      event: {
        type: 'whatsapp_number.status_changed',
        summary: `Status changed from ${number.status} to ${status}`,
        metadata: { from: number.status, to: status, reason: `quality_${event}` },
      },
    });
  }
  return changes;
}

/**
 * What an `account_update` changes on the business account: its ban state as Meta reports it
 * (`ban_info`), and `disabled` while Meta disables it (`active` again when Meta reinstates it).
 */
export function accountUpdate(value: Record<string, unknown>): {
  status?: string;
  ban?: Record<string, unknown>;
} {
  const ban = isObject(value.ban_info) ? value.ban_info : undefined;
  // Meta sends the state as a list (`["SCHEDULE_FOR_DISABLE"]`), older payloads as a string.
  const states = ([] as unknown[])
    .concat(ban?.waba_ban_state ?? [])
    .map((state) => String(state).toUpperCase());
  const status = states.includes('DISABLE')
    ? 'disabled'
    : states.includes('REINSTATE')
      ? 'active'
      : undefined;
  return { ...(status ? { status } : {}), ...(ban ? { ban } : {}) };
}

/** Our reactions have no delivery or read receipt: any status but `failed` is `sent`. */
export function reactionStatus(status: MetaStatus): {
  wamid: string;
  status: 'sent' | 'failed';
  error: Record<string, unknown> | null;
} {
  if (status.status !== 'failed') return { wamid: status.id, status: 'sent', error: null };
  const [error] = status.errors ?? [];
  return {
    wamid: status.id,
    status: 'failed',
    error: {
      code: error?.code === 131047 ? 'service_window_expired' : 'undeliverable',
      description:
        error?.error_data?.details ??
        error?.message ??
        error?.title ??
        'WhatsApp refused the reaction.',
      meta_error_code: error ? String(error.code) : null,
      occurred_at: new Date(Number(status.timestamp) * 1000 || Date.now()).toISOString(),
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
