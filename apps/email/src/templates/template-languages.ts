import type { TemplateOnMissingLanguage } from '@switchboard/contracts';

const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,4}$/;

/** Whether `tag` is a BCP-47 language tag of the form templates accept (`en`, `pt-BR`). */
export function isLanguageTag(tag: string): boolean {
  return tag.length <= 35 && BCP47.test(tag);
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

/** `zh-Hant-TW` -> `zh-Hant`, `zh`: the broader forms of a tag, most specific first. */
function broaderForms(tag: string): string[] {
  const parts = tag.split('-');
  const forms: string[] = [];
  for (let end = parts.length - 1; end >= 1; end--) forms.push(parts.slice(0, end).join('-'));
  return forms;
}

export type LanguageChoice =
  | { ok: true; language: string }
  | { ok: false; reason: 'language_required' | 'language_unavailable' };

/**
 * The language a send or a preview is served (the SDK's `TemplateOnMissingLanguage`): the tag
 * asked for, else a broader form of it (`pt-BR` -> `pt`); then, with `fallback`, the default;
 * with `fail`, a refusal. No tag asked: the default, unless the template requires one.
 */
export function chooseLanguage(
  available: readonly string[],
  defaultLanguage: string,
  requested: string | undefined,
  policy: { onMissing: TemplateOnMissingLanguage; sourceRequired: boolean },
): LanguageChoice {
  if (requested === undefined) {
    if (policy.sourceRequired) return { ok: false, reason: 'language_required' };
    return { ok: true, language: defaultLanguage };
  }
  const tag = canonicalLanguage(requested);
  const byLower = new Map(available.map((language) => [language.toLowerCase(), language]));
  for (const form of [tag, ...broaderForms(tag)]) {
    const match = byLower.get(form.toLowerCase());
    if (match) return { ok: true, language: match };
  }
  if (policy.onMissing === 'fail') return { ok: false, reason: 'language_unavailable' };
  return { ok: true, language: defaultLanguage };
}
