import type { SmsMessageCategory } from '@switchboard/contracts';
import type { SystemSmsTemplate } from './system-sms-templates';
import { SYSTEM_SMS_TEMPLATES } from './system-sms-templates';

/** How a send names its template (the SDK's `SmsTemplateSend`; `name` is deprecated). */
export interface SmsTemplateRef {
  id?: string;
  slug?: string;
  name?: string;
}

export interface TemplateProblem {
  /** Where, from the send's body: `template.slug`, `template.parameters.code`... */
  param: string;
  message: string;
}

export type RenderedSmsTemplate =
  | {
      ok: true;
      text: string;
      /** `text` with each sensitive value replaced by its placeholder: what may be stored. */
      stored_text: string;
      category: SmsMessageCategory;
      template_id: string;
      template_slug: string;
      /** The language served (the one asked for, a broader form of it, or the default). */
      language: string;
    }
  | { ok: false; problems: TemplateProblem[] };

/** The SDK's cap on a send's serialized `parameters`. */
export const MAX_PARAMETERS_BYTES = 16 * 1024;
const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;

const byId = new Map(SYSTEM_SMS_TEMPLATES.map((template) => [template.id, template]));
const bySlug = new Map(SYSTEM_SMS_TEMPLATES.map((template) => [template.slug, template]));

/** A shipped template by id or slug (a path's `{template_ref}` is either). */
export function findSmsTemplate(ref: string): SystemSmsTemplate | undefined {
  return byId.get(ref) ?? bySlug.get(ref);
}

/** `pt-br` -> `pt-BR`, `zh-hant-tw` -> `zh-Hant-TW`: BCP-47's conventional case. */
export function canonicalLanguage(tag: string): string {
  return tag
    .split('-')
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (part.length === 2 || /^\d{3}$/.test(part)) return part.toUpperCase();
      if (part.length === 4) return part[0].toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}

/**
 * The language a send is served (`on_missing_language` is `fallback` on every SMS template): the
 * tag asked for, else its broader forms (`pt-BR` -> `pt`), else the default. Never fails.
 */
export function resolveLanguage(template: SystemSmsTemplate, requested?: string): string {
  if (requested === undefined) return template.defaultLanguage;
  const parts = canonicalLanguage(requested).split('-');
  for (let length = parts.length; length > 0; length--) {
    const candidate = parts.slice(0, length).join('-');
    if (template.bodies[candidate] !== undefined) return candidate;
  }
  return template.defaultLanguage;
}

function resolveTemplate(ref: SmsTemplateRef): SystemSmsTemplate | TemplateProblem {
  if (ref.id !== undefined) {
    const template = byId.get(ref.id);
    if (!template) return { param: 'template.id', message: 'no SMS template has this id' };
    if (ref.slug !== undefined && ref.slug !== template.slug)
      return { param: 'template.slug', message: 'names another template than template.id' };
    return template;
  }
  if (ref.slug !== undefined) {
    return (
      bySlug.get(ref.slug) ?? { param: 'template.slug', message: 'no SMS template has this slug' }
    );
  }
  if (ref.name !== undefined) {
    // Deprecated: a slug first, then the display name.
    const template =
      bySlug.get(ref.name) ?? SYSTEM_SMS_TEMPLATES.find(({ name }) => name === ref.name);
    return template ?? { param: 'template.name', message: 'no SMS template has this slug or name' };
  }
  return { param: 'template', message: 'must name the template by id or slug' };
}

/**
 * Resolves a template send to its text, or every problem with it (each a 422 detail): an unknown
 * template, a malformed language tag, parameters that are not an object or exceed 16 KB, a
 * missing required variable, an undeclared key, a value its variable's type refuses. Pure.
 */
export function renderSmsTemplate(
  ref: SmsTemplateRef,
  language: string | undefined,
  parameters: Record<string, unknown> | undefined,
): RenderedSmsTemplate {
  const found = resolveTemplate(ref);
  if (!('id' in found)) return { ok: false, problems: [found] };
  const template = found;
  const problems: TemplateProblem[] = [];
  if (language !== undefined && (typeof language !== 'string' || !BCP47.test(language)))
    problems.push({
      param: 'template.language',
      message: 'must be a BCP-47 tag, such as en or pt-BR',
    });
  const given = parameters ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    problems.push({ param: 'template.parameters', message: 'must be an object' });
    return { ok: false, problems };
  }
  if (Buffer.byteLength(JSON.stringify(given), 'utf8') > MAX_PARAMETERS_BYTES) {
    problems.push({ param: 'template.parameters', message: 'must be at most 16 KB serialized' });
    return { ok: false, problems };
  }
  const values = new Map<string, string>();
  for (const variable of template.variables) {
    const param = `template.parameters.${variable.key}`;
    const value = Object.prototype.hasOwnProperty.call(given, variable.key)
      ? given[variable.key]
      : undefined;
    if (value === undefined || value === null) {
      if (variable.required)
        problems.push({ param, message: `is required (${variable.constraint})` });
      continue;
    }
    const checked = variable.type.check(value);
    if (checked.ok) values.set(variable.key, checked.text);
    else problems.push({ param, message: checked.message });
  }
  const declared = new Set(template.variables.map(({ key }) => key));
  for (const key of Object.keys(given)) {
    if (!declared.has(key))
      problems.push({
        param: `template.parameters.${key}`,
        message: `is not a variable of ${template.slug} (its variables: ${[...declared].join(', ')})`,
      });
  }
  if (problems.length > 0) return { ok: false, problems };

  const served = resolveLanguage(template, language);
  const body = template.bodies[served];
  const sensitive = new Set(template.variables.filter((v) => v.sensitive).map(({ key }) => key));
  const fill = (keepSensitive: boolean) =>
    body.replace(PLACEHOLDER, (placeholder, key: string) =>
      sensitive.has(key) && !keepSensitive ? placeholder : (values.get(key) ?? ''),
    );
  return {
    ok: true,
    text: fill(true),
    stored_text: fill(false),
    category: template.category,
    template_id: template.id,
    template_slug: template.slug,
    language: served,
  };
}
