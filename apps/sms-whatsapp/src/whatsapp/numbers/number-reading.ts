import { newId } from '@switchboard/persistence';
import type { GraphPhoneNumber } from '../graph/whatsapp-graph';
import type { NewNumberEvent } from './whatsapp-number.row';

/** What a read of `GET /{phone_number_id}` says about a number, in the SDK's lower-cased tokens. */
export interface NumberReading {
  status: string | null;
  quality_rating: string | null;
  messaging_limit: string | null;
  throughput_level: string | null;
  is_official_business_account: boolean | null;
  data_localization_region: string | null;
}

const lower = (value: string | undefined) => (value ? value.toLowerCase() : null);

/** Meta's tokens (`GREEN`, `TIER_1K`, `STANDARD`) as the SDK spells them (`green`, `tier_1k`). */
export function readingOf(number: GraphPhoneNumber): NumberReading {
  return {
    status: lower(number.status),
    quality_rating: lower(number.quality_rating),
    messaging_limit: lower(number.messaging_limit_tier),
    throughput_level: lower(number.throughput?.level),
    is_official_business_account: number.is_official_business_account ?? null,
    data_localization_region: number.data_localization_region?.toUpperCase() ?? null,
  };
}

/** The number as stored before a reading: the fields a reading can change. */
export interface NumberState {
  id: string;
  workspace_id: string;
  status: string;
  quality_rating: string | null;
  messaging_limit: string | null;
}

const WATCHED = [
  ['status', 'whatsapp_number.status_changed', 'Status'],
  ['quality_rating', 'whatsapp_number.quality_rating_updated', 'Quality rating'],
  ['messaging_limit', 'whatsapp_number.messaging_limit_updated', 'Messaging limit'],
] as const;

/**
 * The events a reading records against the stored number: one per watched field it moves
 * (`from` absent when there was no prior value). A reading that says nothing about a field
 * (Meta left it out) changes nothing.
 */
export function changeEvents(before: NumberState, reading: NumberReading): NewNumberEvent[] {
  const events: NewNumberEvent[] = [];
  for (const [field, type, label] of WATCHED) {
    const to = reading[field];
    const from = before[field];
    if (to === null || to === from) continue;
    events.push({
      id: newId('wne'),
      workspaceId: before.workspace_id,
      numberId: before.id,
      type,
      summary: from ? `${label} changed from ${from} to ${to}` : `${label} is ${to}`,
      metadata: from ? { from, to } : { to },
    });
  }
  return events;
}
