import { CommonErrors, MAX_TEMPLATE_LANGUAGES } from '@switchboard/contracts';
import type { EmailTemplateLanguageContent, ErrorDetail } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { contentHash } from './template.mapper';
import { canonicalLanguage, isLanguageTag } from './template-languages';

const SLUG = /^[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?$/;
const RESERVED_PREFIXES = ['bird_', 'emt_'];

/** The SDK's slug rules; the reason a slug is refused, or undefined. */
export function slugProblem(slug: string): string | undefined {
  const reserved = RESERVED_PREFIXES.find((prefix) => slug.startsWith(prefix));
  if (reserved)
    return `must not start with ${reserved} (${reserved === 'bird_' ? 'reserved for built-in templates' : 'the template id format'})`;
  if (!SLUG.test(slug))
    return 'lowercase letters, digits, hyphens and underscores, starting and ending with a letter or digit, at most 63 characters';
  return undefined;
}

export function assertSlug(slug: string, param = 'slug'): void {
  const problem = slugProblem(slug);
  if (problem) throw AppError.validation([{ param, message: problem }]);
}

/** A language tag of a path or body, in canonical form; 422 when it is not one. */
export function languageTag(tag: string, param: string): string {
  if (!isLanguageTag(tag))
    throw AppError.validation([
      { param, message: 'must be a BCP-47 language tag such as en or pt-BR' },
    ]);
  return canonicalLanguage(tag);
}

export interface LanguageWrite {
  language: string;
  subject: string | null;
  preview_text: string | null;
  html: string | null;
  text: string | null;
  content_hash: string;
}

export function languageWrite(
  language: string,
  content: EmailTemplateLanguageContent,
): LanguageWrite {
  const fields = {
    subject: content.subject ?? null,
    preview_text: content.preview_text ?? null,
    html: content.html ?? null,
    text: content.text ?? null,
  };
  return { language, ...fields, content_hash: contentHash(fields) };
}

/** A create's `languages` map, keys canonical, at most 25; 422 naming each bad key. */
export function languageWrites(
  languages: Record<string, EmailTemplateLanguageContent> | undefined,
): LanguageWrite[] {
  if (!languages) return [];
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const writes: LanguageWrite[] = [];
  for (const [tag, content] of Object.entries(languages)) {
    if (!isLanguageTag(tag)) {
      details.push({ param: `languages.${tag}`, message: 'keys must be BCP-47 language tags' });
      continue;
    }
    const language = canonicalLanguage(tag);
    if (seen.has(language))
      details.push({ param: `languages.${tag}`, message: `${language} is given twice` });
    seen.add(language);
    writes.push(languageWrite(language, content));
  }
  if (writes.length > MAX_TEMPLATE_LANGUAGES)
    details.push({
      param: 'languages',
      message: `a template holds at most ${MAX_TEMPLATE_LANGUAGES} languages`,
    });
  if (details.length) throw new AppError(CommonErrors.ValidationError, { details });
  return writes;
}
