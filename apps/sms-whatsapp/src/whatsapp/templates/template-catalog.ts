import { Injectable } from '@nestjs/common';
import { WhatsAppTemplatesErrors } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { broaderForms, canonicalTag, metaLanguageOf } from './language-tags';
import type { MetaComponent } from './meta-components';
import { SENDABLE_LANGUAGE_STATUS } from './template-states';
import type { LanguageRow, TemplateRow } from './template-rows';
import { WhatsAppTemplatesRepository } from './templates.repository';

/** A template language a send can use, as resolved at accept time. */
export interface ResolvedTemplate {
  templateId: string;
  versionId: string;
  businessAccountId: string;
  /** The template's name at Meta (its slug). */
  metaName: string;
  /** Meta's code of the language served (`pt_BR`): what `template.language.code` carries. */
  language: string;
  /** The same language in BCP-47 (`pt-BR`): what the accepted message echoes. */
  languageTag: string;
  /** The category Meta applies to that language, which the message is priced at. */
  category: string;
  /** The language's components as Meta holds them. */
  components: MetaComponent[];
  /** The language's status (always `approved` for a resolved language). */
  status: string;
}

/**
 * Resolves a send's template reference and language against the synced templates: the template
 * (by `wat_` id or slug, within the sender's business account when given), then the language by
 * the template's `on_missing_language` (`fail`: the tag or a broader form of it; `fallback`:
 * also the default language), which must be approved at Meta.
 */
@Injectable()
export class TemplateCatalog {
  constructor(private readonly repository: WhatsAppTemplatesRepository) {}

  async resolveForSend(
    workspaceId: string,
    ref: string,
    language?: string,
    businessAccountId?: string,
  ): Promise<ResolvedTemplate> {
    const template = await this.template(workspaceId, ref, businessAccountId);
    const languages = template.live_version_id
      ? await this.repository.languages([template.live_version_id])
      : [];
    const served = pickLanguage(template, languages, language);
    return {
      templateId: template.id,
      versionId: served.version_id,
      businessAccountId: template.business_account_id,
      metaName: template.slug,
      language: metaLanguageOf(served.language),
      languageTag: served.language,
      category: served.category ?? template.category,
      components: served.components,
      status: served.status,
    };
  }

  private async template(
    workspaceId: string,
    ref: string,
    businessAccountId?: string,
  ): Promise<TemplateRow> {
    const found = await this.repository.findByRef(workspaceId, ref, businessAccountId);
    if (found.length === 0)
      throw new AppError(WhatsAppTemplatesErrors.WhatsAppTemplateNotFound, {
        param: 'template',
        message:
          businessAccountId === undefined
            ? `No WhatsApp template ${ref} in this workspace.`
            : `No WhatsApp template ${ref} in the business account of the sending number.`,
      });
    if (found.length > 1)
      throw new AppError(WhatsAppTemplatesErrors.WhatsAppTemplateAmbiguous, {
        param: 'template.slug',
        message: `${found.length} business accounts of the workspace have a template named ${ref} (${found.map((row) => row.waba).join(', ')}): name the sending number or the template's id.`,
      });
    return found[0];
  }
}

/** The language a send is served in, or the AppError saying why none can be. */
export function pickLanguage(
  template: Pick<TemplateRow, 'slug' | 'default_language' | 'on_missing_language'>,
  languages: readonly LanguageRow[],
  requested: string | undefined,
): LanguageRow {
  const held = new Map(
    languages.filter((row) => row.status !== 'deleted').map((row) => [row.language, row]),
  );
  const sendable = (row: LanguageRow | undefined) =>
    row?.status === SENDABLE_LANGUAGE_STATUS ? row : undefined;
  const notApproved = (row: LanguageRow | undefined, tag: string) =>
    new AppError(WhatsAppTemplatesErrors.WhatsAppTemplateLanguageNotApproved, {
      param: 'template.language',
      message: row
        ? `${template.slug} in ${tag} is ${row.status} at Meta, not approved.`
        : `${template.slug} holds no copy in ${tag} any more.`,
    });
  const byDefault = () => {
    const row = held.get(template.default_language);
    const served = sendable(row);
    if (!served) throw notApproved(row, template.default_language);
    return served;
  };
  if (requested === undefined) return byDefault();
  const tag = canonicalTag(requested);
  if (tag === undefined)
    throw AppError.validation([
      {
        param: 'template.language',
        message: 'must be a language tag such as en, en-US or pt_BR',
      },
    ]);
  const candidates = broaderForms(tag);
  if (template.on_missing_language === 'fallback') {
    for (const candidate of candidates) {
      const served = sendable(held.get(candidate));
      if (served) return served;
    }
    return byDefault();
  }
  const match = candidates.map((candidate) => held.get(candidate)).find(Boolean);
  if (!match)
    throw new AppError(WhatsAppTemplatesErrors.WhatsAppTemplateLanguageMissing, {
      param: 'template.language',
      message: `${template.slug} has no copy in ${tag}${candidates.length > 1 ? ` or ${candidates.slice(1).join(', ')}` : ''}; it holds ${[...held.keys()].join(', ') || 'no language'}.`,
    });
  const served = sendable(match);
  if (!served) throw notApproved(match, match.language);
  return served;
}
