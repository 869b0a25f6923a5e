import { createHash } from 'node:crypto';
import type {
  EmailTemplate,
  EmailTemplateLanguage,
  EmailTemplateSummary,
  EmailTemplateVersion,
  EmailTemplateVersionSummary,
  RequestContext,
} from '@switchboard/contracts';
import { compatibilityOf } from './html-compatibility';
import type { LanguageRow, TemplateRow, VersionRow } from './template.rows';

type LanguageStates = EmailTemplate['languages'];
type TemplateVariable = EmailTemplateVersion['variables'][number];

/** `sha256:<hex>` over a language's four fields: equal content, equal hash. */
export function contentHash(content: {
  subject?: string | null;
  preview_text?: string | null;
  html?: string | null;
  text?: string | null;
}): string {
  const fields = [content.subject, content.preview_text, content.html, content.text];
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(fields.map((f) => f ?? null)))
    .digest('hex')}`;
}

/** Who made a change, as versions record it (`updated_by`). */
export function actorOf(context: RequestContext): { id: string; type: string; display_name: null } {
  const type =
    context.caller.kind === 'session'
      ? 'user'
      : context.caller.kind === 'access_key'
        ? 'oauth_token'
        : context.caller.kind === 'operator'
          ? 'system'
          : 'api_key';
  return { id: context.caller.id ?? context.requestId, type, display_name: null };
}

/**
 * Each language's state: `live` in the live version, `superseded` when only an earlier
 * published version held it, else `draft`; `draft` true when the draft differs from what is live.
 */
function languageStates(row: TemplateRow): LanguageStates {
  const tags = new Set([
    ...Object.keys(row.draft_languages),
    ...Object.keys(row.live_languages),
    ...row.published_languages,
  ]);
  const states: LanguageStates = {};
  for (const tag of [...tags].sort()) {
    const live = row.live_languages[tag];
    const draft = row.draft_languages[tag];
    states[tag] = {
      status: live ? 'live' : row.published_languages.includes(tag) ? 'superseded' : 'draft',
      draft: draft !== live && (draft !== undefined || live !== undefined),
    };
  }
  return states;
}

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

export function toTemplateSummary(row: TemplateRow): EmailTemplateSummary {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    scope: 'workspace',
    status: row.live_version_id ? 'active' : 'draft',
    category: row.category,
    source: row.source,
    theme: null,
    draft_version_id: row.draft_version_id,
    live_version_id: row.live_version_id,
    published_version_id: row.live_version_id,
    live_version_number: row.live_version_number,
    available_languages: Object.keys(row.live_languages).sort(),
    default_language: row.default_language,
    languages: languageStates(row),
    last_submitted_at: iso(row.last_submitted_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toTemplateDto(row: TemplateRow): EmailTemplate {
  const dto: EmailTemplate & { live_version_number?: number | null } = {
    ...toTemplateSummary(row),
    revision: row.revision,
    on_missing_language: row.on_missing_language,
    language_source_required: row.language_source_required,
  };
  delete dto.live_version_number;
  return dto;
}

export function templateVariables(keys: string[]): TemplateVariable[] {
  return keys.map((key) => ({
    key,
    type: 'text',
    required: true,
    constraint: 'Any value; HTML in it is escaped in the HTML body.',
    sensitive: false,
  }));
}

export function toVersionSummary(
  row: VersionRow,
  variables: string[],
): EmailTemplateVersionSummary {
  return {
    id: row.id,
    template_id: row.template_id,
    version_number: row.version_number,
    status: row.status,
    revision: row.revision,
    variables: templateVariables(variables),
    default_language: row.default_language,
    available_languages: row.languages,
    created_at: new Date(row.created_at).toISOString(),
    published_at: iso(row.published_at),
    updated_by: row.updated_by,
  };
}

export function toVersionDto(
  row: VersionRow,
  variables: string[],
  languages: LanguageRow[],
): EmailTemplateVersion {
  const summary: { available_languages?: unknown } & Omit<
    EmailTemplateVersionSummary,
    'available_languages'
  > = { ...toVersionSummary(row, variables) };
  delete summary.available_languages;
  return {
    ...summary,
    languages: Object.fromEntries(
      languages.map((language) => [language.language, contentOf(language)]),
    ),
  };
}

/** A language's stored fields, leaving out the ones it does not hold. */
export function contentOf(row: Pick<LanguageRow, 'subject' | 'preview_text' | 'html' | 'text'>) {
  const content: { subject?: string; preview_text?: string; html?: string; text?: string } = {};
  if (row.subject !== null) content.subject = row.subject;
  if (row.preview_text !== null) content.preview_text = row.preview_text;
  if (row.html !== null) content.html = row.html;
  if (row.text !== null) content.text = row.text;
  return content;
}

export function toLanguageDto(row: LanguageRow): EmailTemplateLanguage {
  const report = compatibilityOf(row.html, null);
  return {
    language: row.language,
    revision: row.revision,
    content_hash: row.content_hash,
    updated_at: iso(row.updated_at),
    content: contentOf(row),
    compatibility_severity: report.severity,
    compatibility: report.findings,
  };
}
