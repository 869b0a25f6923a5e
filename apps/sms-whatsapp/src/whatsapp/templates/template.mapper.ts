import type {
  WhatsAppTemplate,
  WhatsAppTemplateLanguage,
  WhatsAppTemplateLanguageList,
  WhatsAppTemplateVersion,
  WhatsAppTemplateVersionSummary,
} from '@switchboard/contracts';
import { componentsOf } from './meta-components';
import { inReview, SENDABLE_LANGUAGE_STATUS } from './template-states';
import type { LanguageRow, TemplateRow, VersionRow } from './template-rows';

type LanguageState = NonNullable<WhatsAppTemplate['languages'][string]>;
type Rejection = NonNullable<LanguageState['rejection']>;

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

function rejectionOf(row: LanguageRow): Rejection | undefined {
  if (row.status !== 'rejected') return undefined;
  return {
    ...(row.rejection?.category ? { category: row.rejection.category } : {}),
    reason: row.rejection?.reason ?? null,
    recommendation: row.rejection?.recommendation ?? null,
  };
}

function stateOf(row: LanguageRow): LanguageState {
  const rejection = rejectionOf(row);
  return {
    status: row.status,
    submitted_at: iso(row.submitted_at),
    // Meta's one-edit-a-day limit applies to edits made through its API or WhatsApp Manager;
    // this platform does not edit templates, so it never holds an edit back.
    editable_at: null,
    ...(rejection ? { rejection } : {}),
  };
}

function byLanguage<T>(rows: readonly LanguageRow[], map: (row: LanguageRow) => T) {
  return Object.fromEntries(rows.map((row) => [row.language, map(row)]));
}

/** A template row and its live version's languages in the SDK's `WhatsAppTemplate` shape. */
export function toTemplateDto(row: TemplateRow, live: readonly LanguageRow[]): WhatsAppTemplate {
  const everApproved = live.some((language) => language.approved_at !== null);
  const reviewing = live.some((language) => inReview(language.status));
  return {
    id: row.id,
    slug: row.slug,
    slug_editable: false,
    name: row.name,
    description: row.description,
    scope: 'workspace',
    waba: row.waba,
    category: row.category,
    status: row.status as WhatsAppTemplate['status'],
    default_language: row.default_language,
    on_missing_language: row.on_missing_language,
    language_source_required: false,
    available_languages: live
      .filter((language) => language.status === SENDABLE_LANGUAGE_STATUS)
      .map((language) => language.language),
    languages: byLanguage(live, stateOf),
    draft_version_id: null,
    live_version_id: everApproved ? row.live_version_id : null,
    pending_version_id: reviewing ? row.live_version_id : null,
    last_submitted_at: iso(row.last_submitted_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

const submittedAtOf = (languages: readonly LanguageRow[], version: VersionRow) =>
  iso(
    languages.reduce<Date | null>((latest, row) => {
      const at = new Date(row.submitted_at);
      return latest === null || at > latest ? at : latest;
    }, null) ?? version.created_at,
  );

export function toVersionSummaryDto(
  version: VersionRow,
  languages: readonly LanguageRow[],
): WhatsAppTemplateVersionSummary {
  return {
    id: version.id,
    template_id: version.template_id,
    version_number: version.number,
    submitted_at: submittedAtOf(languages, version),
    languages: byLanguage(languages, stateOf),
    created_at: iso(version.created_at),
  };
}

export function toVersionDto(
  version: VersionRow,
  languages: readonly LanguageRow[],
): WhatsAppTemplateVersion {
  return {
    id: version.id,
    template_id: version.template_id,
    version_number: version.number,
    submitted_at: submittedAtOf(languages, version),
    languages: byLanguage(languages, (row) => {
      const rejection = rejectionOf(row);
      return {
        components: componentsOf(row.components),
        status: row.status,
        ...(rejection ? { rejection } : {}),
      };
    }),
    created_at: iso(version.created_at),
  };
}

export function toLanguageListDto(languages: readonly LanguageRow[]): WhatsAppTemplateLanguageList {
  return {
    data: languages.map((row) => ({
      language: row.language,
      status: row.status,
      revision: row.revision,
      content_hash: row.content_hash,
    })),
  };
}

/** One language; `live` says whether its version is the one in service (only that carries quality). */
export function toLanguageDto(row: LanguageRow, live: boolean): WhatsAppTemplateLanguage {
  const rejection = rejectionOf(row);
  return {
    language: row.language,
    components: componentsOf(row.components),
    status: row.status,
    revision: row.revision,
    content_hash: row.content_hash,
    ...(row.category ? { category: row.category } : {}),
    ...(row.previous_category ? { previous_category: row.previous_category } : {}),
    ...(live && row.quality
      ? {
          quality: {
            current_score: row.quality,
            ...(row.quality_previous ? { previous_score: row.quality_previous } : {}),
            updated_at: iso(row.quality_updated_at ?? row.updated_at) as string,
          },
        }
      : {}),
    ...(rejection ? { rejection } : {}),
    submitted_at: iso(row.submitted_at),
    approved_at: iso(row.approved_at),
    updated_at: iso(row.updated_at),
    updated_by: null,
  };
}
