import { Inject, Injectable, Optional } from '@nestjs/common';
import { EmailTemplateErrors, MAX_TEMPLATE_PARAMETERS_BYTES } from '@switchboard/contracts';
import type {
  EmailTemplatePreview,
  PreviewEmailTemplateRequest,
  RequestContext,
} from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import { AppError, workspaceOf } from '@switchboard/platform';
import { CompiledLanguage } from './compiled-language';
import type { LanguageContent } from './compiled-language';
import { compatibilityOf } from './html-compatibility';
import { contactById, TemplateContactsClient } from './template-contacts';
import { TemplateLanguageUnavailableError } from './template-errors';
import { templateVariables } from './template.mapper';
import { liquidProblems, plainLiquid } from './template-liquid';
import { chooseLanguage } from './template-languages';
import { derivedTextProblems } from './submit-check';
import { languageTag } from './template-input';
import { TemplateVersionsService } from './template-versions.service';
import { TemplateVersionsRepository } from './template-versions.repository';

/** What `bird.contact.*` shows in a preview that names no contact. */
const STAND_IN_CONTACT: Record<string, string> = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone_number: '+31612345678',
};

/** Renders a template's draft, a published version or content in hand, with sample values. */
@Injectable()
export class TemplatePreviewsService {
  constructor(
    private readonly versions: TemplateVersionsService,
    private readonly versionRows: TemplateVersionsRepository,
    @Optional() @Inject(TemplateContactsClient) private readonly contacts?: ServiceClient,
  ) {}

  async preview(
    context: RequestContext,
    input: PreviewEmailTemplateRequest,
  ): Promise<EmailTemplatePreview> {
    const workspaceId = workspaceOf(context);
    if (input.version != null && input.content != null)
      throw AppError.validation([
        { param: 'version', message: 'previews either a published version or content: not both' },
      ]);
    if (
      input.parameters &&
      Buffer.byteLength(JSON.stringify(input.parameters)) > MAX_TEMPLATE_PARAMETERS_BYTES
    )
      throw AppError.validation([
        { param: 'parameters', message: 'must be at most 16 KB serialized' },
      ]);
    const requested = input.language == null ? undefined : languageTag(input.language, 'language');
    const { template, version } = await this.versions.version(workspaceId, {
      template_ref: input.template_ref,
      version_id:
        input.version ?? (await this.versions.templateOf(workspaceId, input.template_ref)),
    });
    if (input.version != null && version.status !== 'published')
      throw AppError.validation([
        { param: 'version', message: 'must be a published version; omit it to preview the draft' },
      ]);
    const languages = await this.versionRows.languages(workspaceId, version.id);
    const tags = languages.map((row) => row.language);
    const defaultLanguage = version.default_language;
    const choice = input.content
      ? { ok: true as const, language: requested ?? defaultLanguage }
      : tags.length === 0
        ? { ok: true as const, language: defaultLanguage }
        : chooseLanguage(tags, defaultLanguage, requested, {
            onMissing: template.on_missing_language,
            sourceRequired: false,
          });
    if (!choice.ok) throw new TemplateLanguageUnavailableError('language', requested ?? '', tags);
    const content: LanguageContent | undefined = input.content
      ? {
          subject: input.content.subject ?? null,
          preview_text: input.content.preview_text ?? null,
          html: input.content.html ?? null,
          text: input.content.text ?? null,
        }
      : languages.find((row) => row.language === choice.language);
    const report = compatibilityOf(content?.html, null);
    const base = {
      language: choice.language,
      compatibility_severity: report.severity,
      compatibility: report.findings,
    };
    if (!content) return { ...base, subject: null, html: null, text: null, variables: [] };
    const compiled = compile(content, input.content ? 'content' : `languages.${choice.language}`);
    const contact = input.contact
      ? await this.contactOf(context, input.contact, compiled.variables.contactKeys)
      : standIns(compiled.variables.contactKeys);
    let rendered;
    try {
      rendered = compiled.render({ parameters: input.parameters ?? null, contact }, false);
    } catch (err) {
      throw liquidError('content', (err as Error).message);
    }
    return {
      ...base,
      subject: content.subject === null ? null : rendered.subject,
      html: rendered.html,
      text: rendered.text,
      variables: templateVariables(compiled.variables.parameters),
    };
  }

  private contactOf(context: RequestContext, contactId: string, keys: string[]) {
    if (!this.contacts) throw new Error('previews by contact need the service transport');
    return contactById(this.contacts, context, contactId, keys);
  }
}

/** Parses content a preview renders; 422 `TemplateLiquidInvalid` naming each field refused. */
function compile(content: LanguageContent, param: string): CompiledLanguage {
  const details = (['subject', 'preview_text', 'html', 'text'] as const).flatMap((field) => {
    const source = content[field];
    if (!source) return [];
    const engine = field === 'subject' || field === 'text' ? plainLiquid : undefined;
    return liquidProblems(source, engine).map((message) => ({
      param: `${param}.${field}`,
      message,
    }));
  });
  // Without a text part, the preview renders the text publishing would derive from the HTML.
  if (!details.length && content.html && !content.text)
    details.push(
      ...derivedTextProblems(content.html).map((message) => ({ param: `${param}.html`, message })),
    );
  if (details.length)
    throw new AppError(EmailTemplateErrors.TemplateLiquidInvalid, {
      message: details[0].message,
      details,
    });
  return new CompiledLanguage(content);
}

function liquidError(param: string, message: string): AppError {
  return new AppError(EmailTemplateErrors.TemplateLiquidInvalid, { details: [{ param, message }] });
}

function standIns(keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.map((key) => [key, STAND_IN_CONTACT[key] ?? `[${key}]`]));
}
