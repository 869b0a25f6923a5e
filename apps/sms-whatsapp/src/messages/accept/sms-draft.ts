import { measureSms, SMS_REDACTED_TEXT } from '@switchboard/contracts';
import type { SmsCategory, SmsMessage, SmsTag } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { toMessageDto } from '../message.mapper';
import type { SmsMessageRow } from '../message.mapper';
import { smsEvent } from '../sms-events';
import type { SmsEventRecord } from '../sms-events';

/** An outbound message ready to be written: its sender resolved, its body final. */
export interface OutboundSms {
  to: string;
  from: string;
  text: string;
  category: SmsCategory;
  smartEncoding: boolean;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
  templateId?: string;
  templateLanguage?: string;
  /** `text` with each sensitive value as its placeholder: what is kept once a carrier has it. */
  redactedText?: string;
  /**
   * The carrier to send through (a keyword's reply goes back through the one its message came
   * on). Kept on the submit job, not the message: `carrier` is absent until a carrier takes it.
   */
  carrier?: string;
}

/** The rows one accepted (or, suppressed, rejected) message writes. */
export interface SmsDraft {
  row: SmsMessageRow & {
    country_code: string;
    template_id: string | null;
    template_language: string | null;
    idempotency_key: string | null;
    /** Another service's key for its system send: one message per key and workspace. */
    system_send_key: string | null;
    status_at: Date;
    /** Replaces `text` once the message is handed over or refused (sensitive values out). */
    redacted_text: string | null;
  };
  events: SmsEventRecord[];
  /** Whether a submit job goes with it (not when rejected). */
  queued: boolean;
  /** Its submit job skips the opt-out check (a keyword's reply). */
  keywordReply?: boolean;
  /** The carrier its submit job goes through (a keyword's reply: the one its message came on). */
  viaCarrier?: string;
}

/**
 * The ISO country of a number: the one it is valid in, else the main country of its calling code
 * (`+44 7700 900...` is GB), ZZ when it has none (stats count those under ZZ).
 */
export function countryOf(number: string): string {
  const parsed = parsePhoneNumberFromString(number);
  return parsed?.country ?? parsed?.getPossibleCountries()[0] ?? 'ZZ';
}

/** `last_error` of a message an opt-out (`suppression`) or a preference stopped. */
export function optOutError(
  sms: { to: string; from: string; category: string },
  kind: 'suppression' | 'preference',
  now: Date,
) {
  return {
    code: 'recipient_opted_out',
    description:
      kind === 'preference'
        ? `${sms.to} revoked consent to ${sms.category} messages from ${sms.from} (a preference)`
        : `${sms.to} opted out of messages from ${sms.from}`,
    carrier_error_code: null,
    occurred_at: now.toISOString(),
  };
}

/**
 * A message as the send writes it: `accepted` with its `sms.accepted` event, or, when the
 * (from, to) pair has an opt-out in force or the recipient's preferences stop it (`suppressed`
 * says which), `rejected` with `recipient_opted_out` and never queued.
 */
export function draftOutbound(
  workspaceId: string,
  sms: OutboundSms,
  now: Date,
  options: {
    suppressed: boolean | 'suppression' | 'preference';
    idempotencyKey?: string;
    /** Another service's key for a system send (`dedupe_key`), unique per workspace. */
    systemSendKey?: string;
    /** A keyword's reply (a STOP's confirmation): its submit skips the opt-out check too. */
    keywordReply?: boolean;
  },
): SmsDraft {
  const measure = measureSms(sms.text, { smartEncoding: sms.smartEncoding });
  // A one-time code written as free text has no placeholders to keep: the whole body goes.
  const kept =
    sms.redactedText ?? (sms.category === 'authentication' ? SMS_REDACTED_TEXT : undefined);
  const redacted =
    kept === undefined ? null : measureSms(kept, { smartEncoding: sms.smartEncoding }).text;
  const id = newId('sms', now.getTime());
  const segments = {
    count: measure.count,
    encoding: measure.encoding,
    characters: measure.characters,
  };
  const error = options.suppressed
    ? optOutError(sms, options.suppressed === 'preference' ? 'preference' : 'suppression', now)
    : undefined;
  const row: SmsDraft['row'] = {
    id,
    workspace_id: workspaceId,
    direction: 'outbound',
    status: options.suppressed ? 'rejected' : 'accepted',
    from_address: sms.from,
    to_address: sms.to,
    country_code: countryOf(sms.to),
    category: sms.category,
    // Refused now, it never needs its sensitive values.
    text: options.suppressed ? (redacted ?? measure.text) : measure.text,
    redacted_text: options.suppressed ? null : redacted,
    segments: segments.count,
    encoding: segments.encoding,
    characters: segments.characters,
    smart_encoding: sms.smartEncoding,
    tags: sms.tags,
    metadata: sms.metadata,
    template_id: sms.templateId ?? null,
    template_language: sms.templateLanguage ?? null,
    carrier: null,
    mcc_mnc: null,
    last_error_code: error?.code ?? null,
    last_error_description: error?.description ?? null,
    last_error_carrier_code: null,
    last_error_at: error ? now : null,
    idempotency_key: options.idempotencyKey ?? null,
    system_send_key: options.systemSendKey ?? null,
    created_at: now,
    sent_at: null,
    delivered_at: null,
    status_at: now,
  };
  const subject = {
    messageId: id,
    workspaceId,
    to: sms.to,
    from: sms.from,
    tags: sms.tags,
    metadata: sms.metadata,
  };
  const events = [smsEvent('sms.accepted', subject, now, { segments })];
  if (error) events.push(smsEvent('sms.rejected', subject, now, { error }));
  return {
    row,
    events,
    queued: !options.suppressed,
    ...(options.keywordReply ? { keywordReply: true } : {}),
    ...(sms.carrier ? { viaCarrier: sms.carrier } : {}),
  };
}

/** What the 202 answers for a draft (the same mapping reads use). */
export function acceptedView(draft: SmsDraft): SmsMessage {
  return toMessageDto(draft.row);
}

/** A message received on a workspace's number: `received`, with its `sms.received` event, never queued. */
export function draftInbound(
  workspaceId: string,
  inbound: { from: string; to: string; text: string; carrier: string; receivedAt: Date },
): SmsDraft {
  const measure = measureSms(inbound.text);
  const at = inbound.receivedAt;
  const id = newId('sms', at.getTime());
  const segments = {
    count: measure.count,
    encoding: measure.encoding,
    characters: measure.characters,
  };
  const row: SmsDraft['row'] = {
    id,
    workspace_id: workspaceId,
    direction: 'inbound',
    status: 'received',
    from_address: inbound.from,
    to_address: inbound.to,
    country_code: countryOf(inbound.from),
    category: null,
    text: inbound.text,
    segments: segments.count,
    encoding: segments.encoding,
    characters: segments.characters,
    smart_encoding: null,
    tags: [],
    metadata: {},
    template_id: null,
    template_language: null,
    carrier: inbound.carrier,
    mcc_mnc: null,
    last_error_code: null,
    last_error_description: null,
    last_error_carrier_code: null,
    last_error_at: null,
    idempotency_key: null,
    system_send_key: null,
    created_at: at,
    sent_at: null,
    delivered_at: null,
    status_at: at,
    redacted_text: null,
  };
  const subject = {
    messageId: id,
    workspaceId,
    to: inbound.to,
    from: inbound.from,
    tags: [],
    metadata: {},
  };
  const event = smsEvent('sms.received', subject, at, {
    segments,
    text: inbound.text,
    carrier: inbound.carrier,
  });
  return { row, events: [event], queued: false };
}
