import { SMS_LIMITS, SmsErrors } from '@switchboard/contracts';
import type { ErrorCode, SmsTag } from '@switchboard/contracts';
import type { TemplateChoice } from './send-request.normaliser';

/** Reports a problem of the field named `param` (relative to the send). */
export type Report = (param: string, message: string, code?: ErrorCode) => void;

const TAG_PART = /^[A-Za-z0-9_-]+$/;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The shape of a template send's `template` (its rendering is the templates'). */
export function templateChoice(value: unknown, report: Report): TemplateChoice | undefined {
  if (!isObject(value)) {
    report('template', 'must be an object with id or slug', SmsErrors.SMSTemplateInvalid);
    return undefined;
  }
  const ref: TemplateChoice['ref'] = {};
  for (const key of ['id', 'slug', 'name'] as const) {
    const given = value[key];
    if (given === undefined) continue;
    if (typeof given !== 'string' || given.length === 0)
      report(`template.${key}`, 'must be a non-empty string', SmsErrors.SMSTemplateInvalid);
    else ref[key] = given;
  }
  if (!ref.id && !ref.slug && !ref.name)
    report('template', 'must name the template by id or slug', SmsErrors.SMSTemplateInvalid);
  for (const key of Object.keys(value))
    if (!['id', 'slug', 'name', 'language', 'parameters'].includes(key))
      report(`template.${key}`, 'is not a field of a template send', SmsErrors.SMSTemplateInvalid);
  const { language, parameters } = value;
  if (language !== undefined && typeof language !== 'string')
    report('template.language', 'must be a BCP-47 language tag', SmsErrors.SMSTemplateInvalid);
  if (parameters !== undefined) {
    if (!isObject(parameters))
      report('template.parameters', 'must be an object', SmsErrors.SMSTemplateInvalid);
    else if (Buffer.byteLength(JSON.stringify(parameters)) > SMS_LIMITS.templateParametersBytes)
      report(
        'template.parameters',
        'must be at most 16 KB serialized',
        SmsErrors.SMSTemplateInvalid,
      );
  }
  return {
    ref,
    language: typeof language === 'string' ? language : undefined,
    parameters: isObject(parameters) ? parameters : undefined,
  };
}

/** At most 20 `{name, value}` tags of the tag charset, names unique. */
export function normaliseTags(value: unknown, report: Report): SmsTag[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    report('tags', 'must be a list of {name, value}');
    return [];
  }
  if (value.length > SMS_LIMITS.tags) report('tags', `must hold at most ${SMS_LIMITS.tags} tags`);
  const tags: SmsTag[] = [];
  const names = new Set<string>();
  value.slice(0, SMS_LIMITS.tags).forEach((item: unknown, index) => {
    const at = `tags[${index}]`;
    if (!isObject(item)) return report(at, 'must be an object {name, value}');
    const part = (key: 'name' | 'value', max: number): string | undefined => {
      const given = item[key];
      if (typeof given !== 'string' || given.length === 0)
        report(`${at}.${key}`, 'must be a non-empty string');
      else if (given.length > max) report(`${at}.${key}`, `must be at most ${max} characters`);
      else if (!TAG_PART.test(given))
        report(`${at}.${key}`, 'may hold ASCII letters, digits, _ and - only');
      else return given;
      return undefined;
    };
    const name = part('name', SMS_LIMITS.tagName);
    const tagValue = part('value', SMS_LIMITS.tagValue);
    for (const key of Object.keys(item))
      if (key !== 'name' && key !== 'value') report(`${at}.${key}`, 'is not a field of a tag');
    if (name !== undefined && names.has(name))
      report(`${at}.name`, `repeats the tag name ${name}: tag names are unique`);
    if (name !== undefined) names.add(name);
    if (name !== undefined && tagValue !== undefined) tags.push({ name, value: tagValue });
  });
  return tags;
}

/** A JSON object of at most 2 KB serialized. */
export function normaliseMetadata(value: unknown, report: Report): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    report('metadata', 'must be a JSON object');
    return {};
  }
  if (Buffer.byteLength(JSON.stringify(value)) > SMS_LIMITS.metadataBytes)
    report('metadata', `must be at most ${SMS_LIMITS.metadataBytes} bytes serialized`);
  return value;
}
