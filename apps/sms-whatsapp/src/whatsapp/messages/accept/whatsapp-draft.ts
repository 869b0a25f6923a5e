import type { WhatsAppMessage } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { toWhatsAppMessage } from '../message.mapper';
import type { WhatsAppMessageRow, WhatsAppTag } from '../message.mapper';
import { eventSubjectOf, whatsappEvent } from '../whatsapp-events';
import type { WhatsAppEventRecord } from '../whatsapp-events';
import type { WhatsAppRecipient } from '@switchboard/contracts';

/** An outbound message whose every rule passed: its sender, content and Graph body are final. */
export interface OutboundWhatsApp {
  numberId: string;
  businessPhone: string | null;
  /** The WhatsApp Business Account id Meta gives the sender's account: the preferences' sender scope. */
  businessAccount: string;
  to: WhatsAppRecipient;
  /** The SDK field the content reads back under, and its read shape. */
  contentKind: string;
  content: unknown;
  /** Free-form content needs the service window again when it is dispatched. */
  freeForm: boolean;
  category: string | null;
  templateId: string | null;
  templateVersionId: string | null;
  templateLanguage: string | null;
  inReplyToMessageId: string | null;
  tags: WhatsAppTag[];
  metadata: Record<string, unknown>;
  /** The body of `POST /{phone_number_id}/messages`, built at accept time. */
  graph: Record<string, unknown>;
}

/** The dispatch job of a message: it carries the Graph body, so dispatch reads no template. */
export interface DispatchPayload {
  message_id: string;
  graph: Record<string, unknown>;
}

/** The rows one accepted message writes. */
export interface WhatsAppDraft {
  row: WhatsAppMessageRow & {
    country_code: string;
    template_id: string | null;
    template_version_id: string | null;
    template_language: string | null;
    idempotency_key: string | null;
    status_at: Date;
  };
  events: WhatsAppEventRecord[];
  /** None when the message is rejected at accept. */
  job: DispatchPayload | null;
}

/** The ISO country of a phone number (ZZ for a business-scoped user id or an unknown one). */
function countryOf(recipient: WhatsAppRecipient): string {
  if (recipient.kind !== 'phone_number') return 'ZZ';
  const parsed = parsePhoneNumberFromString(recipient.phoneNumber);
  return parsed?.country ?? parsed?.getPossibleCountries()[0] ?? 'ZZ';
}

/**
 * Whether a send is transactional for the recipient's preferences (ADR 14): a session
 * (non-template) message answers the person inside the window they opened, and utility and
 * authentication templates are transactional; marketing templates are not.
 */
export function isTransactional(send: { category: string | null }): boolean {
  return send.category !== 'marketing';
}

/**
 * `last_error` of a message its recipient's preferences stop (`recipient_suppressed`), at the
 * send or before dispatch.
 */
export function suppressedError(
  message: { phone: string | null; category: string | null; businessAccount: string },
  now: Date,
) {
  return {
    code: 'recipient_suppressed',
    description: `${message.phone ?? 'The recipient'} revoked consent to ${isTransactional(message) ? '' : 'marketing '}messages from WhatsApp Business Account ${message.businessAccount} (a preference)`,
    meta_error_code: null,
    occurred_at: now.toISOString(),
  };
}

/**
 * A message as the send writes it: `accepted`, with its `whatsapp.accepted` event and its job;
 * or, when the recipient's preferences stop it (`optedOut`), `rejected` with
 * `recipient_suppressed` and its `whatsapp.rejected` event, never dispatched.
 */
export function draftOutbound(
  workspaceId: string,
  send: OutboundWhatsApp,
  now: Date,
  options: { idempotencyKey?: string; optedOut?: boolean } = {},
): WhatsAppDraft {
  const { idempotencyKey, optedOut = false } = options;
  const id = newId('wam', now.getTime());
  const error = optedOut
    ? suppressedError(
        {
          phone: send.to.kind === 'phone_number' ? send.to.phoneNumber : null,
          category: send.category,
          businessAccount: send.businessAccount,
        },
        now,
      )
    : undefined;
  const row: WhatsAppDraft['row'] = {
    id,
    workspace_id: workspaceId,
    direction: 'outbound',
    status: optedOut ? 'rejected' : 'accepted',
    number_id: send.numberId,
    business_phone: send.businessPhone,
    contact_phone: send.to.kind === 'phone_number' ? send.to.phoneNumber : null,
    contact_bsuid: send.to.kind === 'bsuid' ? send.to.bsuid : null,
    contact_username: null,
    contact_display_name: null,
    country_code: countryOf(send.to),
    content_kind: send.contentKind,
    content: send.content,
    category: send.category,
    template_id: send.templateId,
    template_version_id: send.templateVersionId,
    template_language: send.templateLanguage,
    in_reply_to_message_id: send.inReplyToMessageId,
    interactive_reply: null,
    unsupported: null,
    reaction: null,
    inbound_reaction: null,
    last_error_code: error?.code ?? null,
    last_error_description: error?.description ?? null,
    last_error_meta_code: null,
    last_error_at: error ? now : null,
    tags: send.tags,
    metadata: send.metadata,
    idempotency_key: idempotencyKey ?? null,
    created_at: now,
    sent_at: null,
    delivered_at: null,
    read_at: null,
    status_at: now,
  };
  const subject = eventSubjectOf(row);
  const events = [whatsappEvent('whatsapp.accepted', subject, now)];
  if (error) events.push(whatsappEvent('whatsapp.rejected', subject, now, { error }));
  return { row, events, job: error ? null : { message_id: id, graph: send.graph } };
}

/** What the 202 answers for a draft (the same mapping reads use). */
export function acceptedView(draft: WhatsAppDraft): WhatsAppMessage {
  return toWhatsAppMessage(draft.row);
}
