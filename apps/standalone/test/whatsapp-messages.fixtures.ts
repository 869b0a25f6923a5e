import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';

/** A WhatsApp number seeded straight into the tables (what a connector leaves behind). */
export interface SeededNumber {
  id: string;
  businessAccountId: string;
  waba: string;
  phoneNumberId: string;
  phoneNumber: string;
}

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36).padStart(4, '0')}`;

/**
 * A business account (or the one given) and a number on it, as connecting one leaves them: the
 * message tests need a sender, not the connect flow, which its own spec drives.
 */
export async function seedNumber(
  db: Client,
  workspaceId: string,
  input: { phoneNumber: string; status?: string; account?: { id: string; waba: string } },
): Promise<SeededNumber> {
  const key = unique();
  const account = input.account ?? { id: `waa_${key}`, waba: `waba${key}` };
  if (!input.account)
    await db.query(
      `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
       VALUES ($1, $2, $3, 'Acme')`,
      [account.id, workspaceId, account.waba],
    );
  const number = {
    id: `wan_${key}`,
    businessAccountId: account.id,
    waba: account.waba,
    phoneNumberId: `pn${key}`,
    phoneNumber: input.phoneNumber,
  };
  await db.query(
    `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
       phone_number_id, phone_number, channel_id, name, status)
     VALUES ($1, $2, $3, $4, $5, $6, 'Acme', $7)`,
    [
      number.id,
      workspaceId,
      account.id,
      number.phoneNumberId,
      number.phoneNumber,
      randomUUID(),
      input.status ?? 'connected',
    ],
  );
  return number;
}

/**
 * An approved template of one language in the number's account, as a sync leaves it: a body
 * with `{{1}}` (positional), category `utility` unless given.
 */
export async function seedTemplate(
  db: Client,
  workspaceId: string,
  number: SeededNumber,
  input: { slug: string; category?: string; language?: string; components?: unknown[] },
): Promise<{ id: string }> {
  const key = unique();
  const id = `wat_${key}`;
  const versionId = `wav_${key}`;
  const category = input.category ?? 'utility';
  const language = input.language ?? 'en';
  await db.query(
    `INSERT INTO sms_whatsapp.whatsapp_templates (id, workspace_id, business_account_id, slug,
       name, category, status, default_language, live_version_id)
     VALUES ($1, $2, $3, $4, $4, $5, 'active', $6, $7)`,
    [id, workspaceId, number.businessAccountId, input.slug, category, language, versionId],
  );
  await db.query(
    `INSERT INTO sms_whatsapp.whatsapp_template_versions (id, workspace_id, template_id, number,
       status) VALUES ($1, $2, $3, 1, 'live')`,
    [versionId, workspaceId, id],
  );
  await db.query(
    `INSERT INTO sms_whatsapp.whatsapp_template_languages (version_id, language, workspace_id,
       meta_template_id, components, status, category, content_hash, submitted_at, approved_at)
     VALUES ($1, $2, $3, $4, $5, 'approved', $6, $4, now(), now())`,
    [
      versionId,
      language,
      workspaceId,
      `mt${key}`,
      JSON.stringify(input.components ?? [{ type: 'BODY', text: 'Your order {{1}} has shipped.' }]),
      category,
    ],
  );
  return { id };
}

/** Opens (or, with `hoursAgo` >= 24, closes) the service window of (number, contact). */
export async function setServiceWindow(
  db: Client,
  workspaceId: string,
  number: SeededNumber,
  contact: string,
  hoursAgo = 0,
): Promise<void> {
  await db.query(
    `INSERT INTO sms_whatsapp.whatsapp_service_windows (number_id, contact, workspace_id,
       last_inbound_at) VALUES ($1, $2, $3, now() - make_interval(hours => $4))
     ON CONFLICT (number_id, contact) DO UPDATE SET last_inbound_at = EXCLUDED.last_inbound_at`,
    [number.id, contact, workspaceId, hoursAgo],
  );
}
