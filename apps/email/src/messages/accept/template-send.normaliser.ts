import type { EmailTemplateSendInput } from '@switchboard/contracts';
import { MAX_TEMPLATE_PARAMETERS_BYTES } from '@switchboard/contracts';

const TEMPLATE_FIELDS = new Set(['id', 'slug', 'language', 'parameters']);
const TEMPLATE_ID = /^emt_[0-9a-z]{1,64}$/;
const SLUG = /^[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?$/;
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,4}$/;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A send's `template` (the SDK's `EmailTemplateSend`): `id` or `slug` (one of them), an optional
 * BCP-47 `language`, and `parameters`, a JSON object of at most 16 KB whose names are single
 * words other than the reserved `bird`. Problems are reported under `template.…`.
 */
export function readTemplateSend(
  value: unknown,
  report: (param: string, message: string) => void,
): Omit<EmailTemplateSendInput, 'inherit_category'> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    report('template', 'must be an object {id or slug, language?, parameters?}');
    return undefined;
  }
  const input = value as Record<string, unknown>;
  let ok = true;
  const fail = (param: string, message: string) => {
    report(param, message);
    ok = false;
  };
  for (const key of Object.keys(input))
    if (!TEMPLATE_FIELDS.has(key)) fail(`template.${key}`, 'is not a known field');
  const field = (key: string) => (Object.hasOwn(input, key) ? input[key] : undefined) ?? undefined;
  const id = field('id');
  const slug = field('slug');
  if (id === undefined && slug === undefined) fail('template', 'name the template by id or slug');
  if (id !== undefined && slug !== undefined)
    fail('template.slug', 'name the template by id or by slug, not both');
  if (id !== undefined && (typeof id !== 'string' || !TEMPLATE_ID.test(id)))
    fail('template.id', 'must be a template id (emt_…)');
  if (slug !== undefined && (typeof slug !== 'string' || !SLUG.test(slug)))
    fail('template.slug', 'must be a template slug: lowercase letters, digits, - and _');
  const language = field('language');
  if (
    language !== undefined &&
    (typeof language !== 'string' || language.length > 35 || !LANGUAGE_TAG.test(language))
  )
    fail('template.language', 'must be a BCP-47 language tag such as en or pt-BR');
  const parameters = field('parameters');
  if (parameters !== undefined) {
    if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
      fail('template.parameters', 'must be a JSON object');
    else {
      let size = Infinity;
      try {
        size = Buffer.byteLength(JSON.stringify(parameters));
      } catch {
        fail('template.parameters', 'must be a JSON object');
      }
      if (size !== Infinity && size > MAX_TEMPLATE_PARAMETERS_BYTES)
        fail(
          'template.parameters',
          `must be at most ${MAX_TEMPLATE_PARAMETERS_BYTES} bytes once serialized`,
        );
      for (const name of Object.keys(parameters))
        if (name === 'bird')
          fail(
            'template.parameters.bird',
            'bird is reserved: the platform supplies values under it',
          );
        else if (!PARAMETER_NAME.test(name))
          fail(
            `template.parameters.${name}`,
            'parameter names are single words (letters, digits, underscore)',
          );
    }
  }
  if (!ok) return undefined;
  const send: Omit<EmailTemplateSendInput, 'inherit_category'> = {};
  if (typeof id === 'string') send.id = id;
  if (typeof slug === 'string') send.slug = slug;
  if (typeof language === 'string') send.language = language;
  if (parameters !== undefined) send.parameters = parameters as Record<string, unknown>;
  return send;
}
