/**
 * WhatsApp templates (`bird.whatsapp.templates`, with `versions` and `languages`): read-only
 * copies of what Meta holds for a business account, synced on demand (the workspace API's
 * `sync-templates`) and periodically. One template per (account, Meta name); each of Meta's
 * templates of that name is one language. The shapes are the SDK's own.
 */
import type {
  TemplateStatus,
  WhatsAppTemplate,
  WhatsAppTemplateLanguage,
  WhatsAppTemplateLanguageList,
  WhatsAppTemplateVersion,
  WhatsAppTemplateVersionSummary,
} from '@messagebird/sdk';

export type {
  WhatsAppTemplate,
  WhatsAppTemplateLanguage,
  WhatsAppTemplateLanguageList,
  WhatsAppTemplateVersion,
  WhatsAppTemplateVersionSummary,
};

export const WhatsAppTemplateSubjects = {
  List: 'sms_whatsapp.whatsapp_template.list',
  Get: 'sms_whatsapp.whatsapp_template.get',
  ListVersions: 'sms_whatsapp.whatsapp_template_version.list',
  GetVersion: 'sms_whatsapp.whatsapp_template_version.get',
  ListLanguages: 'sms_whatsapp.whatsapp_template_language.list',
  GetLanguage: 'sms_whatsapp.whatsapp_template_language.get',
  Sync: 'sms_whatsapp.whatsapp_template.sync',
} as const;

export const WHATSAPP_TEMPLATE_STATUSES = [
  'draft',
  'pending',
  'active',
  'rejected',
  'inactive',
] as const satisfies readonly TemplateStatus[];
export const WHATSAPP_TEMPLATE_SCOPES = ['system', 'workspace'] as const;
export type TemplateStatusFilter = (typeof WHATSAPP_TEMPLATE_STATUSES)[number];
export type TemplateScopeFilter = (typeof WHATSAPP_TEMPLATE_SCOPES)[number];

/** `GET /v1/whatsapp/templates` (the SDK's `WhatsappTemplatesListQuery`). */
export interface ListWhatsAppTemplatesRequest {
  waba?: string;
  status?: TemplateStatusFilter[];
  scope?: TemplateScopeFilter;
  category?: string;
  /** Case-insensitive substring of the slug, name or description. */
  q?: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/** A `{template_ref}`: a `wat_` id or a slug. */
export interface WhatsAppTemplateRefRequest {
  template_ref: string;
}

export interface ListWhatsAppTemplateVersionsRequest extends WhatsAppTemplateRefRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

export interface WhatsAppTemplateVersionRequest extends WhatsAppTemplateRefRequest {
  version_id: string;
}

export interface WhatsAppTemplateLanguageRequest extends WhatsAppTemplateVersionRequest {
  /** BCP-47 (`pt-BR`); Meta's `pt_BR` is accepted. */
  language: string;
}

/** `POST /workspaces/{workspace_id}/channel-groups/{channel_group_id}/sync-templates`. */
export interface SyncWhatsAppTemplatesRequest {
  workspace_id: string;
  channel_group_id: string;
}

export interface SyncWhatsAppTemplatesReply {
  status: 'accepted';
  message: string;
}
