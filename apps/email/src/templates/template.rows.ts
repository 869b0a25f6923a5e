import type { TemplateOnMissingLanguage } from '@switchboard/contracts';

/** A template as TemplatesRepository reads it, with its draft's and live version's summaries. */
export interface TemplateRow {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  description: string | null;
  category: 'transactional' | 'marketing';
  source: string;
  on_missing_language: TemplateOnMissingLanguage;
  language_source_required: boolean;
  draft_version_id: string;
  live_version_id: string | null;
  last_submitted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The draft's revision and default language. */
  revision: number;
  default_language: string;
  live_version_number: number | null;
  /** Language -> content hash, in the draft and in the live version. */
  draft_languages: Record<string, string>;
  live_languages: Record<string, string>;
  /** Every language some published version of the template held. */
  published_languages: string[];
}

export interface VersionRow {
  id: string;
  workspace_id: string;
  template_id: string;
  status: 'draft' | 'published';
  version_number: number | null;
  revision: number;
  default_language: string;
  variables: string[];
  updated_by: { id: string; type: string; display_name?: string | null } | null;
  created_at: Date;
  published_at: Date | null;
  languages: string[];
}

export interface LanguageRow {
  version_id: string;
  workspace_id: string;
  language: string;
  subject: string | null;
  preview_text: string | null;
  html: string | null;
  text: string | null;
  revision: number;
  content_hash: string;
  updated_at: Date;
}
