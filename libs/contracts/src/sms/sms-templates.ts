/**
 * SMS templates (`bird.smsTemplates`): the built-in templates the platform ships (`scope`
 * `system`, read-only, not versioned), resolved to one language at send. Every SMS template is
 * `system`, so a list filtered on `scope=workspace` is empty.
 */

export const SmsTemplateSubjects = {
  List: 'sms_whatsapp.sms_template.list',
  Get: 'sms_whatsapp.sms_template.get',
} as const;

export const SMS_TEMPLATE_SCOPES = ['system', 'workspace'] as const;
export type SmsTemplateScope = (typeof SMS_TEMPLATE_SCOPES)[number];

export const SMS_MESSAGE_CATEGORIES = [
  'transactional',
  'marketing',
  'authentication',
  'service',
] as const;
export type SmsMessageCategory = (typeof SMS_MESSAGE_CATEGORIES)[number];

/** The SDK's `TemplateStatus`; on SMS only `draft`, `active` and `inactive` occur. */
export type SmsTemplateStatus = 'draft' | 'pending' | 'active' | 'rejected' | 'inactive';

/** One slot a send fills from `template.parameters` (the SDK's `TemplateVariable`). */
export interface SmsTemplateVariable {
  key: string;
  /** The typed slot (`code`, `integer`, `amount`, `currency`, `date`, `time`, `name`, `short_text`). */
  type: string;
  required: boolean;
  constraint: string;
  /** The value is kept out of stored content: a placeholder is stored instead. */
  sensitive?: boolean;
}

export interface SmsTemplate {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  scope: SmsTemplateScope;
  status: SmsTemplateStatus;
  category: SmsMessageCategory;
  /** The default language's body, placeholders inline (`{{ code }}`). */
  body: string;
  variables: SmsTemplateVariable[];
  default_language: string;
  available_languages: string[];
  languages: Record<string, { status: 'draft' | 'live' | 'superseded' }>;
  on_missing_language: 'fallback' | 'fail';
  language_source_required: boolean;
  draft_version_id: string | null;
  live_version_id: string | null;
  /** Deprecated alias of `live_version_id`. */
  published_version_id: string | null;
  revision: number | null;
  last_submitted_at: string | null;
  created_at: string | null;
  updated_at: string | null;
}

/** `GET /v1/sms/templates`: the whole catalog, filtered; not paginated. */
export interface ListSmsTemplatesRequest {
  scope?: SmsTemplateScope;
  category?: SmsMessageCategory;
  /** Exact match on `available_languages`, no fallback. */
  language?: string;
}

/** `GET /v1/sms/templates/{template_ref}`: an id or a slug. */
export interface GetSmsTemplateRequest {
  template_ref: string;
}

export interface SmsTemplateList {
  data: SmsTemplate[];
}
