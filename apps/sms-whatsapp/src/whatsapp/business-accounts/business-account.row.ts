import type { WhatsAppBusinessAccount } from '@switchboard/contracts';
import type { GraphBusinessAccount } from '../graph/whatsapp-graph';

/** A stored WhatsApp Business Account. */
export interface BusinessAccountRow {
  id: string;
  workspace_id: string;
  waba: string;
  name: string;
  status: string;
  account_review_status: string | null;
  business_verification_status: string | null;
  marketing_messages_onboarding_status: string | null;
  portfolio: { meta_id: string; name?: string } | null;
  ban: WhatsAppBusinessAccount['ban'] | null;
  meta_synced_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const ACCOUNT_SELECT = `id, workspace_id, waba, name, status, account_review_status,
  business_verification_status, marketing_messages_onboarding_status, portfolio, ban,
  meta_synced_at, created_at, updated_at`;

/** What a read of `GET /{waba_id}` says about an account, in lower-cased tokens. */
export interface AccountReading {
  name: string | null;
  account_review_status: string | null;
  business_verification_status: string | null;
  marketing_messages_onboarding_status: string | null;
  portfolio: { meta_id: string; name?: string } | null;
}

const lower = (value: string | undefined) => (value ? value.toLowerCase() : null);

export function accountReadingOf(account: GraphBusinessAccount): AccountReading {
  const owner = account.owner_business_info;
  return {
    name: account.name ?? null,
    account_review_status: lower(account.account_review_status),
    business_verification_status: lower(account.business_verification_status),
    marketing_messages_onboarding_status: lower(account.marketing_messages_onboarding_status),
    portfolio: owner?.id
      ? { meta_id: owner.id, ...(owner.name ? { name: owner.name } : {}) }
      : null,
  };
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The SDK's WhatsAppBusinessAccount; fields Meta never reported are left out. */
export function toBusinessAccount(row: BusinessAccountRow): WhatsAppBusinessAccount {
  return {
    id: row.id,
    waba: row.waba,
    name: row.name,
    status: row.status,
    ...(row.account_review_status ? { account_review_status: row.account_review_status } : {}),
    ...(row.business_verification_status
      ? { business_verification_status: row.business_verification_status }
      : {}),
    ...(row.marketing_messages_onboarding_status
      ? { marketing_messages_onboarding_status: row.marketing_messages_onboarding_status }
      : {}),
    ...(row.portfolio ? { portfolio: row.portfolio } : {}),
    ...(row.ban ? { ban: row.ban } : {}),
    ...(row.meta_synced_at ? { meta_synced_at: iso(row.meta_synced_at) } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
