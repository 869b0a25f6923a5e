import { WHATSAPP_CONTENT_LIMITS as L } from '@switchboard/contracts';
import type {
  WhatsAppTemplateComponentSend,
  WhatsAppTemplateParameterSend,
  WhatsAppTemplateSend,
} from '@switchboard/contracts';
import { checkList, checkMediaUrl, checkText, isObject, refuseUnknown } from './content-problems';
import type { Report } from './content-problems';
import { checkLocation } from './simple-content.rules';

const PARAMETER_TYPES = ['text', 'image', 'video', 'gif', 'document', 'location'] as const;
const COMPONENT_TYPES = ['header', 'body', 'button', 'carousel'] as const;
const CARD_COMPONENT_TYPES = ['header', 'body', 'button'] as const;
/** A named parameter's name, as Meta accepts them: lowercase letters, digits and underscores. */
const PARAMETER_NAME = /^[a-z_][a-z0-9_]{0,63}$/;
/** BCP-47, or Meta's underscore form (`pt_BR`), which is normalised. */
const LANGUAGE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/;

/** `pt_BR` -> `pt-BR`; the language's case is BCP-47's (`en`, `pt-BR`, `zh-Hant`). */
export function normaliseLanguageTag(tag: string): string {
  const [language, ...rest] = tag.split(/[-_]/);
  return [
    language.toLowerCase(),
    ...rest.map((part) =>
      part.length === 2
        ? part.toUpperCase()
        : part.length === 4
          ? part[0].toUpperCase() + part.slice(1).toLowerCase()
          : part.toLowerCase(),
    ),
  ].join('-');
}

function checkParameter(
  value: unknown,
  at: string,
  report: Report,
): WhatsAppTemplateParameterSend | undefined {
  if (!isObject(value)) return void report(at, 'must be an object');
  const type = value.type;
  if (typeof type !== 'string' || !(PARAMETER_TYPES as readonly string[]).includes(type))
    return void report(`${at}.type`, `must be one of ${PARAMETER_TYPES.join(', ')}`);
  const field = type === 'text' ? 'text' : type === 'location' ? 'location' : 'url';
  refuseUnknown(value, ['type', field, 'name'], at, report, `a ${type} parameter`);
  const name = checkText(value.name, `${at}.name`, report, { max: 64 });
  if (name !== undefined && !PARAMETER_NAME.test(name))
    report(`${at}.name`, 'must be a parameter name: lowercase letters, digits and underscores');
  const named = name === undefined ? {} : { name };
  if (field === 'text') {
    const text = checkText(value.text, `${at}.text`, report, {
      max: L.templateText,
      required: true,
    });
    return text === undefined ? undefined : { type, text, ...named };
  }
  if (field === 'location') {
    if (value.location === undefined) return void report(`${at}.location`, 'is required');
    const location = checkLocation(value.location, `${at}.location`, report);
    return location === undefined ? undefined : { type, location, ...named };
  }
  const url = checkMediaUrl(value.url, `${at}.url`, report);
  return url === undefined ? undefined : { type, url, ...named };
}

function checkParameters(value: unknown, at: string, report: Report) {
  const list = checkList(value, at, report, { min: 0, max: L.templateParameters });
  return list?.map((parameter, index) => checkParameter(parameter, `${at}[${index}]`, report));
}

function checkComponent(
  value: unknown,
  at: string,
  types: readonly string[],
  report: Report,
): WhatsAppTemplateComponentSend | undefined {
  if (!isObject(value)) return void report(at, 'must be an object');
  const type = value.type;
  if (typeof type !== 'string' || !types.includes(type))
    return void report(`${at}.type`, `must be one of ${types.join(', ')}`);
  if (type === 'carousel') {
    refuseUnknown(value, ['type', 'cards'], at, report, 'a carousel part');
    const cards = checkList(value.cards, `${at}.cards`, report, { min: 1, max: L.cardsMax }) ?? [];
    const checked = cards.map((card, c) => {
      const cat = `${at}.cards[${c}]`;
      if (!isObject(card)) return void report(cat, 'must be an object');
      refuseUnknown(card, ['components'], cat, report, 'a card');
      const parts =
        checkList(card.components, `${cat}.components`, report, {
          min: 0,
          max: L.templateComponents,
        }) ?? [];
      return {
        components: parts.map((part, p) =>
          checkComponent(part, `${cat}.components[${p}]`, CARD_COMPONENT_TYPES, report),
        ),
      };
    });
    return { type, cards: checked } as WhatsAppTemplateComponentSend;
  }
  refuseUnknown(value, ['type', 'parameters'], at, report, `a ${type} part`);
  const parameters = checkParameters(value.parameters, `${at}.parameters`, report);
  return { type, parameters: parameters ?? [] } as WhatsAppTemplateComponentSend;
}

/** The shape of a template send: `{id|slug, language?, components?}`; its fit to the template is `checkTemplateParameters`. */
export function checkTemplateSend(
  value: unknown,
  report: Report,
): WhatsAppTemplateSend | undefined {
  if (!isObject(value)) return void report('template', 'must be an object with id or slug');
  refuseUnknown(
    value,
    ['id', 'slug', 'language', 'components'],
    'template',
    report,
    'a template send',
  );
  const id = checkText(value.id, 'template.id', report, { max: 64 });
  const slug = checkText(value.slug, 'template.slug', report, { max: L.templateSlug });
  if (id === undefined && slug === undefined && value.id === undefined && value.slug === undefined)
    report('template', 'must name the template by id or slug');
  const language = checkText(value.language, 'template.language', report, {
    min: 2,
    max: L.templateLanguage,
  });
  if (language !== undefined && !LANGUAGE.test(language))
    report('template.language', 'must be a BCP-47 language tag, such as en or pt-BR');
  const components = checkList(value.components, 'template.components', report, {
    min: 0,
    max: L.templateComponents,
  })?.map((component, index) =>
    checkComponent(component, `template.components[${index}]`, COMPONENT_TYPES, report),
  );
  return {
    ...(id !== undefined && { id }),
    ...(slug !== undefined && { slug }),
    ...(language !== undefined &&
      LANGUAGE.test(language) && { language: normaliseLanguageTag(language) }),
    components: (components ?? []).filter((component) => component !== undefined),
  };
}
