import type { WhatsAppNumber, WhatsAppNumberEvent } from '@switchboard/contracts';
import type { WhatsAppNumberEventRow } from './whatsapp-number.row';
import type { WhatsAppNumberRow } from './whatsapp-number.row';

const iso = (value: Date | string) => new Date(value).toISOString();

/** The SDK's WhatsAppNumber: what Meta never reported is left out, as the SDK documents. */
export function toWhatsAppNumber(row: WhatsAppNumberRow): WhatsAppNumber {
  return {
    id: row.id,
    waba: row.waba,
    phone_number: row.phone_number,
    name: row.name,
    scope: 'workspace',
    ...(row.data_localization_region
      ? { data_localization_region: row.data_localization_region as never }
      : {}),
    status: row.status,
    ...(row.status === 'failed' && row.error ? { error: row.error } : {}),
    ...(row.quality_rating ? { quality_rating: row.quality_rating } : {}),
    ...(row.messaging_limit ? { messaging_limit: row.messaging_limit } : {}),
    ...(row.throughput_level ? { throughput_level: row.throughput_level } : {}),
    ...(row.is_official_business_account !== null
      ? { is_official_business_account: row.is_official_business_account }
      : {}),
    ...(row.meta_synced_at ? { meta_synced_at: iso(row.meta_synced_at) } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toNumberEvent(row: WhatsAppNumberEventRow): WhatsAppNumberEvent {
  return {
    id: row.id,
    type: row.type,
    summary: row.summary,
    metadata: row.metadata,
    created_at: iso(row.created_at),
  };
}
