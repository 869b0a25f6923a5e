import type { SmsError, SmsEventType, SmsSegments, SmsTag } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';

/** What every event of a message echoes (the SDK's `EventSmsBase`). */
export interface SmsEventSubject {
  messageId: string;
  workspaceId: string;
  to: string;
  from: string;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
}

/** Beside the base: what the event's type adds (segments, carrier, error, text). */
export interface SmsEventExtra {
  segments?: SmsSegments;
  carrier?: string | null;
  mccMnc?: string | null;
  error?: SmsError;
  text?: string;
}

/**
 * A step of a message's timeline that is no webhook event: a carrier's intermediate receipt
 * (ACCEPTD, ENROUTE, or a state it made up). The timeline's types are open.
 */
export type SmsTimelineOnlyType = 'sms.carrier_accepted' | 'sms.enroute' | 'sms.carrier_status';

/** One event, as the timeline stores it and as the outbox publishes it (same id). */
export interface SmsEventRecord {
  id: string;
  messageId: string;
  workspaceId: string;
  type: SmsEventType | SmsTimelineOnlyType;
  occurredAt: Date;
  carrier: string | null;
  mccMnc: string | null;
  error: SmsError | null;
  /** The webhook body's `data`. */
  data: Record<string, unknown>;
}

/** The subject of a stored message's event, from its row. */
export function smsSubjectOf(row: {
  id: string;
  workspace_id: string;
  to_address: string;
  from_address: string;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
}): SmsEventSubject {
  return {
    messageId: row.id,
    workspaceId: row.workspace_id,
    to: row.to_address,
    from: row.from_address,
    tags: row.tags,
    metadata: row.metadata,
  };
}

/**
 * The timeline events that name the carrier (the SDK: present on `sms.sent` and `sms.delivered`
 * once identified, absent otherwise).
 */
export const IDENTIFIED_CARRIER_EVENTS: ReadonlySet<string> = new Set([
  'sms.sent',
  'sms.delivered',
]);

/**
 * The webhook events that carry it: those, and `sms.received` ("the carrier the message came in
 * over"). The others keep it for stats, never in what subscribers read.
 */
const CARRIER_NAMING_EVENTS: ReadonlySet<string> = new Set([
  ...IDENTIFIED_CARRIER_EVENTS,
  'sms.received',
]);

export function smsEvent(
  type: SmsEventType | SmsTimelineOnlyType,
  subject: SmsEventSubject,
  occurredAt: Date,
  extra: SmsEventExtra = {},
): SmsEventRecord {
  const data: Record<string, unknown> = {
    sms_id: subject.messageId,
    workspace_id: subject.workspaceId,
    to: subject.to,
    from: subject.from,
    tags: subject.tags.length ? subject.tags : null,
    metadata: Object.keys(subject.metadata).length ? subject.metadata : null,
  };
  if (extra.segments) data.segments = extra.segments;
  if (extra.text !== undefined) data.text = extra.text;
  if (CARRIER_NAMING_EVENTS.has(type)) {
    if (extra.carrier) data.carrier = extra.carrier;
    if (extra.mccMnc) data.mcc_mnc = extra.mccMnc;
  }
  if (extra.error) data.error = extra.error;
  return {
    id: newId('ev', occurredAt.getTime()),
    messageId: subject.messageId,
    workspaceId: subject.workspaceId,
    type,
    occurredAt,
    carrier: extra.carrier ?? null,
    mccMnc: extra.mccMnc ?? null,
    error: extra.error ?? null,
    data,
  };
}
