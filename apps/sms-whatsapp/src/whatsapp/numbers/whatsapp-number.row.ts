import type { NumberState } from './number-reading';

/** A stored WhatsApp number with its account's WABA (timestamps come back from pg as Dates). */
export interface WhatsAppNumberRow {
  id: string;
  workspace_id: string;
  business_account_id: string;
  /** The account's Meta id (joined from whatsapp_business_accounts). */
  waba: string;
  phone_number_id: string;
  phone_number: string | null;
  channel_id: string;
  name: string;
  status: string;
  error: { code: string; description?: string; meta_error_code?: string | null } | null;
  quality_rating: string | null;
  messaging_limit: string | null;
  throughput_level: string | null;
  is_official_business_account: boolean | null;
  data_localization_region: string | null;
  meta_synced_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The select list of a WhatsAppNumberRow over `whatsapp_numbers n JOIN whatsapp_business_accounts a`. */
export const NUMBER_SELECT = `n.id, n.workspace_id, n.business_account_id, a.waba, n.phone_number_id,
  n.phone_number, n.channel_id, n.name, n.status, n.error, n.quality_rating, n.messaging_limit,
  n.throughput_level, n.is_official_business_account, n.data_localization_region, n.meta_synced_at,
  n.created_at, n.updated_at`;

export const NUMBER_FROM = `sms_whatsapp.whatsapp_numbers n
  JOIN sms_whatsapp.whatsapp_business_accounts a ON a.id = n.business_account_id`;

/** A stored number event (`seq` orders events recorded in the same instant). */
export interface WhatsAppNumberEventRow {
  id: string;
  type: string;
  summary: string;
  metadata: Record<string, unknown>;
  created_at: Date | string;
}

/** An event to record about a number. */
export interface NewNumberEvent {
  id: string;
  workspaceId: string;
  numberId: string;
  type: string;
  summary: string;
  metadata: Record<string, unknown>;
}

/** A number a connect creates. */
export interface NewWhatsAppNumber {
  id: string;
  workspaceId: string;
  businessAccountId: string;
  phoneNumberId: string;
  phoneNumber: string;
  channelId: string;
  name: string;
  status: string;
}

/** A number due for its periodic re-read from Meta. */
export interface StaleNumber extends NumberState {
  phone_number_id: string;
  /** As text, to the microsecond (a Date would lose them). */
  meta_synced_at: string | null;
}
