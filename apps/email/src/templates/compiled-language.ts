import { MAX_RENDERED_PART_LENGTH } from '@switchboard/contracts';
import type { Template } from 'liquidjs';
import { UndefinedVariableError } from 'liquidjs';
import {
  foldPreviewText,
  htmlLiquid,
  plainLiquid,
  textFromHtml,
  variablesOf,
} from './template-liquid';
import type { TemplateVariables } from './template-liquid';

/** One language's content, as stored or as a preview supplies it. */
export interface LanguageContent {
  subject: string | null;
  preview_text: string | null;
  html: string | null;
  text: string | null;
}

/** What a render produces: the subject and bodies of one email. */
export interface RenderedTemplate {
  subject: string;
  html: string | null;
  text: string | null;
}

/** The values a render fills in: the send's parameters and the recipient contact's attributes. */
export interface TemplateValues {
  parameters?: Record<string, unknown> | null;
  /** `bird.contact.*`: `first_name`, `last_name`, `email` and the contact's own attributes. */
  contact?: Record<string, unknown> | null;
}

/**
 * One language of a version, parsed once: rendering it again only evaluates the parsed trees.
 * Parsing throws on Liquid that does not parse (content checked at submit never does).
 */
export class CompiledLanguage {
  readonly variables: TemplateVariables;
  private readonly subject: Template[];
  private readonly previewText: Template[] | null;
  private readonly html: Template[] | null;
  private readonly text: Template[] | null;

  constructor(content: LanguageContent) {
    this.subject = plainLiquid.parse(content.subject ?? '');
    // Plain text, escaped as a whole when folded into the HTML.
    this.previewText = content.preview_text ? plainLiquid.parse(content.preview_text) : null;
    this.html = content.html ? htmlLiquid.parse(content.html) : null;
    // Without a text part, the text publishing would derive (a draft's preview sends as that).
    const text = content.text ?? (content.html ? textFromHtml(content.html) : null);
    this.text = text ? plainLiquid.parse(text) : null;
    this.variables = variablesOf(
      [this.subject, this.previewText, this.html, this.text].filter(
        (parsed): parsed is Template[] => parsed !== null,
      ),
    );
  }

  /** The parameters this language uses that `parameters` gives no value for. */
  missing(parameters: Record<string, unknown> | null | undefined): string[] {
    return this.variables.parameters.filter(
      (name) => !parameters || !Object.prototype.hasOwnProperty.call(parameters, name),
    );
  }

  /**
   * Renders with `values`. `strict`: a value the content reads and `values` lack throws (an
   * `UndefinedVariableError` naming it); otherwise it renders empty, as a preview does. A
   * `bird.contact` attribute the contact lacks renders empty either way.
   */
  render(values: TemplateValues, strict: boolean): RenderedTemplate {
    const scope = this.scopeOf(values);
    const options = { strictVariables: strict };
    const subject = bounded(plainLiquid.renderSync(this.subject, scope, options) as string);
    let html = this.html
      ? bounded(htmlLiquid.renderSync(this.html, scope, options) as string)
      : null;
    if (html !== null && this.previewText) {
      const preview = bounded(plainLiquid.renderSync(this.previewText, scope, options) as string);
      if (preview.trim()) html = bounded(foldPreviewText(html, preview));
    }
    const text = this.text
      ? bounded(plainLiquid.renderSync(this.text, scope, options) as string)
      : null;
    return { subject: subject.replace(/[\r\n]+/g, ' ').trim(), html, text };
  }

  private scopeOf(values: TemplateValues): Record<string, unknown> {
    const contact: Record<string, unknown> = {};
    for (const key of this.variables.contactKeys) {
      // Own attributes only: `bird.contact.constructor` is a property key, not Object's.
      const value =
        values.contact && Object.hasOwn(values.contact, key) ? values.contact[key] : undefined;
      contact[key] = value === undefined || value === null ? '' : value;
    }
    const given = values.parameters?.bird;
    const sample =
      given && typeof given === 'object' ? (given as { contact?: unknown }).contact : undefined;
    if (sample && typeof sample === 'object') Object.assign(contact, sample);
    return { ...(values.parameters ?? {}), bird: { contact } };
  }
}

/** A rendered part within MAX_RENDERED_PART_LENGTH; the callers answer the error as a 422. */
function bounded(rendered: string): string {
  if (rendered.length > MAX_RENDERED_PART_LENGTH)
    throw new Error(
      `the content renders to more than ${MAX_RENDERED_PART_LENGTH.toLocaleString('en')} characters`,
    );
  return rendered;
}

/** The variable an `UndefinedVariableError` names (`name` of `undefined variable: name`). */
export function undefinedVariableOf(err: unknown): string | undefined {
  if (!(err instanceof UndefinedVariableError)) return undefined;
  const match = /undefined variable: ([^,\s]+)/.exec(err.message);
  return match?.[1];
}
