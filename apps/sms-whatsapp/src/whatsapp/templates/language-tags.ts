/** Meta's language codes (`pt_BR`, `en`) and the BCP-47 tags the API speaks (`pt-BR`). */

const TAG = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$/;

/**
 * A tag in BCP-47's conventional case with `-` (`pt_br` -> `pt-BR`, `zh_Hant_TW` -> `zh-Hant-TW`);
 * undefined for what cannot be a language tag.
 */
export function canonicalTag(tag: string): string | undefined {
  if (!TAG.test(tag)) return undefined;
  return tag
    .split(/[-_]/)
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (part.length === 2 || /^\d{3}$/.test(part)) return part.toUpperCase();
      if (part.length === 4) return part[0].toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}

/** A language as Meta spells it in a send (`pt-BR` -> `pt_BR`). */
export function metaLanguageOf(tag: string): string {
  return tag.replace(/-/g, '_');
}

/** The tag and its broader forms, most specific first: `zh-Hant-TW`, `zh-Hant`, `zh`. */
export function broaderForms(tag: string): string[] {
  const parts = tag.split('-');
  return parts.map((_, index) => parts.slice(0, parts.length - index).join('-'));
}
