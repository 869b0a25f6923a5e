import type { MetaComponent } from './meta-components';

/** A row of `whatsapp_templates` with its account's WABA id. */
export interface TemplateRow {
  id: string;
  workspace_id: string;
  business_account_id: string;
  waba: string;
  slug: string;
  name: string;
  description: string | null;
  category: string;
  status: string;
  default_language: string;
  on_missing_language: 'fallback' | 'fail';
  live_version_id: string | null;
  last_submitted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A row of `whatsapp_template_languages`. */
export interface LanguageRow {
  version_id: string;
  language: string;
  meta_template_id: string;
  components: MetaComponent[];
  status: string;
  category: string | null;
  previous_category: string | null;
  quality: string | null;
  quality_previous: string | null;
  quality_updated_at: Date | null;
  rejection: { category?: string; reason?: string | null; recommendation?: string | null } | null;
  revision: number;
  content_hash: string;
  submitted_at: Date;
  approved_at: Date | null;
  updated_at: Date;
}

/** A row of `whatsapp_template_versions`. */
export interface VersionRow {
  id: string;
  template_id: string;
  number: number;
  status: string;
  created_at: Date;
}

export const TEMPLATE_COLUMNS = `t.id, t.workspace_id, t.business_account_id, a.waba, t.slug, t.name,
  t.description, t.category, t.status, t.default_language, t.on_missing_language,
  t.live_version_id, t.last_submitted_at, t.created_at, t.updated_at`;
export const TEMPLATE_FROM = `sms_whatsapp.whatsapp_templates t
  JOIN sms_whatsapp.whatsapp_business_accounts a ON a.id = t.business_account_id`;
export const LANGUAGE_COLUMNS = `version_id, language, meta_template_id, components, status,
  category, previous_category, quality, quality_previous, quality_updated_at, rejection, revision,
  content_hash, submitted_at, approved_at, updated_at`;

/** Ids the API issues: `wat_`/`wav_` and 26 base32 characters; anything else is a slug. */
export const isTemplateId = (ref: string) => /^wat_[0-9a-z]{26}$/.test(ref);
