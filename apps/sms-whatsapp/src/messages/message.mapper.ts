import { SMS_REDACTED_TEXT } from '@switchboard/contracts';
import type {
  SmsCategory,
  SmsDirection,
  SmsError,
  SmsEvent,
  SmsMessage,
  SmsMessageStatus,
  SmsTag,
} from '@switchboard/contracts';
import { IDENTIFIED_CARRIER_EVENTS } from './sms-events';

/** A row of sms_whatsapp.sms_messages as reads select it (`MESSAGE_COLUMNS`). */
export interface SmsMessageRow {
  id: string;
  workspace_id: string;
  direction: SmsDirection;
  status: SmsMessageStatus;
  from_address: string;
  to_address: string;
  category: SmsCategory | null;
  text: string;
  segments: number;
  encoding: 'GSM_7BIT' | 'UCS2';
  characters: number;
  smart_encoding: boolean | null;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
  carrier: string | null;
  mcc_mnc: string | null;
  last_error_code: string | null;
  last_error_description: string | null;
  last_error_carrier_code: string | null;
  last_error_at: Date | null;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
}

export const MESSAGE_COLUMNS = `id, workspace_id, direction, status, from_address, to_address,
  category, text, segments, encoding, characters, smart_encoding, tags, metadata, carrier,
  mcc_mnc, last_error_code, last_error_description, last_error_carrier_code, last_error_at,
  created_at, sent_at, delivered_at`;

export interface SmsEventRow {
  id: string;
  type: string;
  occurred_at: Date;
  carrier: string | null;
  mcc_mnc: string | null;
  error: SmsError | null;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/** A message as the API shows it; an authentication body never leaves the service. */
export function toMessageDto(row: SmsMessageRow): SmsMessage {
  const message: SmsMessage = {
    id: row.id,
    direction: row.direction,
    status: row.status,
    to: row.to_address,
    from: row.from_address,
    text: row.category === 'authentication' ? SMS_REDACTED_TEXT : row.text,
    category: row.category,
    segments: { count: row.segments, encoding: row.encoding, characters: row.characters },
    cost: null,
    tags: row.tags,
    metadata: row.metadata,
    created_at: iso(row.created_at) as string,
    sent_at: iso(row.sent_at),
    delivered_at: iso(row.delivered_at),
  };
  if (row.direction === 'outbound' && row.smart_encoding !== null)
    message.options = { smart_encoding: row.smart_encoding };
  if (row.carrier) message.carrier = row.carrier;
  if (row.mcc_mnc) message.mcc_mnc = row.mcc_mnc;
  if (row.last_error_code)
    message.last_error = {
      code: row.last_error_code,
      description: row.last_error_description ?? '',
      carrier_error_code: row.last_error_carrier_code,
      occurred_at: iso(row.last_error_at) ?? (iso(row.created_at) as string),
    };
  return message;
}

export function toEventDto(row: SmsEventRow): SmsEvent {
  const event: SmsEvent = {
    id: row.id,
    type: row.type,
    occurred_at: new Date(row.occurred_at).toISOString(),
  };
  // The SDK names the carrier only on these two; a failure's carrier is in its error's detail.
  if (IDENTIFIED_CARRIER_EVENTS.has(row.type)) {
    if (row.carrier) event.carrier = row.carrier;
    if (row.mcc_mnc) event.mcc_mnc = row.mcc_mnc;
  }
  if (row.error) event.error = row.error;
  return event;
}
