import { domainToASCII } from 'node:url';
import {
  checkEmail,
  OWN_PREFERENCE_ORIGINS,
  phoneNumber,
  senderSpelling,
} from '@switchboard/contracts';
import type { CreatePreferenceRequest, ErrorDetail } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { PreferenceRow, PreferenceState } from './preferences.repository';

const E164 = /^\+[1-9]\d{6,14}$/;

export function isOwnStatement(origin: string): boolean {
  return (OWN_PREFERENCE_ORIGINS as readonly string[]).includes(origin);
}

/** The handle as the key stores it: a lowercased address on email, E.164 on SMS and WhatsApp. */
export function normalizeHandle(channel: string, handle: string): string | undefined {
  const trimmed = handle.trim();
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return undefined;
  if (channel === 'email') {
    // As the email channel sends to it (an internationalised domain in its `xn--` form), or a
    // statement about `anna@bücher.de` would never meet a send to it.
    const at = trimmed.lastIndexOf('@');
    const ascii =
      at > 0 ? `${trimmed.slice(0, at)}@${domainToASCII(trimmed.slice(at + 1))}` : trimmed;
    const checked = checkEmail(ascii);
    return 'email' in checked ? checked.email : undefined;
  }
  // E.164 as given, in the form the channels send to (`+310612345678` is `+31612345678`).
  if (channel === 'sms' || channel === 'whatsapp')
    return E164.test(trimmed) ? phoneNumber(trimmed) : undefined;
  return trimmed.length > 0 ? trimmed : undefined;
}

/** The statement a create records, checked against the rules the gateway cannot see. */
export function statementOf(
  input: CreatePreferenceRequest,
  origin: string,
  now: Date,
): { handle: string; state: PreferenceState } {
  const details: ErrorDetail[] = [];
  const handle = normalizeHandle(input.channel, input.handle);
  if (!handle)
    details.push({
      param: 'handle',
      message:
        input.channel === 'email'
          ? 'must be an email address on the email channel'
          : 'must be a phone number in E.164 format (+ and 7 to 15 digits)',
    });
  if (input.channel === 'email' && input.sender_scope !== undefined)
    details.push({ param: 'sender_scope', message: 'is not supported on email' });
  let consentedAt: Date | null = null;
  if (input.consented_at !== undefined) {
    consentedAt = new Date(input.consented_at);
    if (Number.isNaN(consentedAt.getTime()))
      details.push({ param: 'consented_at', message: 'must be an RFC 3339 date-time' });
    else if (consentedAt.getTime() > now.getTime())
      details.push({ param: 'consented_at', message: 'may not be in the future' });
    if (input.status === 'revoked')
      details.push({ param: 'consented_at', message: 'is only accepted on a granted statement' });
  }
  if (details.length > 0 || !handle) throw AppError.validation(details);
  return {
    handle,
    state: {
      status: input.status,
      coverage: input.coverage ?? 'non_transactional',
      origin,
      source: input.source ?? null,
      consentedAt,
      // A grant is dated by its consent evidence; anything else by when it reaches us.
      effectiveAt: consentedAt ?? now,
      contactId: input.contact_id ?? null,
    },
  };
}

/** Whether the statement says exactly what the key's live row already says. */
export function isRepeat(row: PreferenceRow, state: PreferenceState): boolean {
  const consented = row.consented_at ? new Date(row.consented_at).getTime() : null;
  return (
    row.status === state.status &&
    row.coverage === state.coverage &&
    row.origin === state.origin &&
    row.source === state.source &&
    consented === (state.consentedAt?.getTime() ?? null)
  );
}

/**
 * A sender scope as the channel compares it: an SMS originator spelled as the SMS service does,
 * a WhatsApp business account without the spaces around it.
 */
export function normalizeSenderScope(channel: string, scope: string | null): string | null {
  if (scope === null) return null;
  return channel === 'sms' ? senderSpelling(scope.trim()) : scope.trim();
}
