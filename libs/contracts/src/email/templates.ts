/**
 * Email templates (`bird.email.templates`, with `versions` and `languages`): a slug-named
 * template whose draft version is edited per language and submitted to become the live version
 * that sends use. The reply shapes are the SDK's own.
 */
import type {
  EmailTemplate,
  EmailTemplateLanguage,
  EmailTemplateLanguageList,
  EmailTemplateLanguageSaved,
  EmailTemplatePreview,
  EmailTemplateSubmitResult,
  EmailTemplateSummary,
  EmailTemplateVersion,
  EmailTemplateVersionSummary,
} from '@messagebird/sdk';
import type { PageRequest } from '../pagination';

export type {
  EmailTemplate,
  EmailTemplateLanguage,
  EmailTemplateLanguageList,
  EmailTemplateLanguageSaved,
  EmailTemplatePreview,
  EmailTemplateSubmitResult,
  EmailTemplateSummary,
  EmailTemplateVersion,
  EmailTemplateVersionSummary,
};

export type EmailCompatibilityFinding = EmailTemplatePreview['compatibility'][number];
export type EmailCompatibilitySeverity = EmailTemplatePreview['compatibility_severity'];

export const EmailTemplateSubjects = {
  List: 'email.template.list',
  Create: 'email.template.create',
  Get: 'email.template.get',
  Update: 'email.template.update',
  Delete: 'email.template.delete',
  Duplicate: 'email.template.duplicate',
  Preview: 'email.template.preview',
  ListVersions: 'email.template_version.list',
  GetVersion: 'email.template_version.get',
  DiscardDraft: 'email.template_version.discard',
  Submit: 'email.template_version.submit',
  Rollback: 'email.template_version.rollback',
  ListLanguages: 'email.template_language.list',
  GetLanguage: 'email.template_language.get',
  PutLanguage: 'email.template_language.put',
  PatchLanguage: 'email.template_language.patch',
  DeleteLanguage: 'email.template_language.delete',
} as const;

export const EMAIL_TEMPLATE_CATEGORIES = ['transactional', 'marketing'] as const;
export type EmailTemplateCategory = (typeof EMAIL_TEMPLATE_CATEGORIES)[number];
export const EMAIL_TEMPLATE_THEMES = ['arcane', 'barebone', 'matte', 'protocol', 'studio'] as const;
export const TEMPLATE_ON_MISSING_LANGUAGE = ['fallback', 'fail'] as const;
export type TemplateOnMissingLanguage = (typeof TEMPLATE_ON_MISSING_LANGUAGE)[number];

/** A template holds at most this many languages (the SDK's `languages` comment). */
export const MAX_TEMPLATE_LANGUAGES = 25;
/** `parameters` of a send or a preview, serialized. */
export const MAX_TEMPLATE_PARAMETERS_BYTES = 16 * 1024;
/**
 * What one part (subject, HTML, text) may render to, in characters: twice what a body's source
 * may hold. A loop writes its literal markup on every turn, which Liquid's memory limit does not
 * count (`{% tablerow i in (1..1000000) %}` is 27 MB of cells).
 */
export const MAX_RENDERED_PART_LENGTH = 2_000_000;

/** One language's content as written (every field optional on a draft). */
export interface EmailTemplateLanguageContent {
  subject?: string;
  preview_text?: string;
  html?: string;
  text?: string;
}

export interface TemplateRefRequest {
  /** An `emt_` id or a slug. */
  template_ref: string;
}
export interface TemplateVersionRequest extends TemplateRefRequest {
  version_id: string;
}
export interface TemplateLanguageRequest extends TemplateVersionRequest {
  language: string;
}

export interface ListEmailTemplatesRequest extends PageRequest {
  scope?: 'system' | 'workspace';
  category?: EmailTemplateCategory;
  source?: string;
  theme?: string;
  q?: string;
}

export interface CreateEmailTemplateRequest {
  slug: string;
  name?: string;
  description?: string;
  category: EmailTemplateCategory;
  source: 'html';
  languages?: Record<string, EmailTemplateLanguageContent>;
  default_language?: string;
  on_missing_language?: TemplateOnMissingLanguage;
  language_source_required?: boolean;
}

export interface UpdateEmailTemplateRequest extends TemplateRefRequest {
  revision: number;
  name?: string;
  description?: string | null;
  default_language?: string;
  on_missing_language?: TemplateOnMissingLanguage;
  language_source_required?: boolean;
}

export interface DuplicateEmailTemplateRequest extends TemplateRefRequest {
  slug?: string;
}

export interface PreviewEmailTemplateRequest extends TemplateRefRequest {
  content?: EmailTemplateLanguageContent;
  parameters?: Record<string, unknown>;
  contact?: string;
  language?: string;
  version?: string;
}

export type ListEmailTemplateVersionsRequest = TemplateRefRequest & PageRequest;

export interface SubmitEmailTemplateRequest extends TemplateVersionRequest {
  validate_only?: boolean;
  expected_revision?: number;
  languages?: string[];
}

export interface RollbackEmailTemplateRequest extends TemplateVersionRequest {
  revision: number;
}

export interface PutEmailTemplateLanguageRequest extends TemplateLanguageRequest {
  subject: string;
  preview_text?: string;
  html?: string;
  text?: string;
  revision?: number;
}

export interface PatchEmailTemplateLanguageRequest extends TemplateLanguageRequest {
  subject?: string;
  preview_text?: string | null;
  html?: string;
  text?: string | null;
  revision?: number;
}
