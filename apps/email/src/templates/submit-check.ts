import { EmailTemplateErrors } from '@switchboard/contracts';
import type { EmailTemplateSubmitResult } from '@switchboard/contracts';
import { liquidProblems, plainLiquid, textFromHtml } from './template-liquid';
import type { LanguageRow } from './template.rows';

type SubmitProblem = EmailTemplateSubmitResult['errors'][number];

/** The draft and what is live now, as a submit compares them. */
export interface SubmitCandidate {
  languages: Array<
    Pick<LanguageRow, 'language' | 'subject' | 'preview_text' | 'html' | 'text' | 'content_hash'>
  >;
  defaultLanguage: string;
  /** Language -> content hash of the live version; empty when nothing was published. */
  live: Record<string, string>;
  liveDefaultLanguage: string | null;
}

/**
 * Every reason the draft cannot be submitted (empty: it can), all languages at once: a draft
 * with no languages or identical to the live version, a default language it does not hold, a
 * language without a subject or a body, Liquid that does not parse or is not supported.
 */
export function submitProblems(candidate: SubmitCandidate): SubmitProblem[] {
  const problems: SubmitProblem[] = [];
  const { languages } = candidate;
  if (languages.length === 0)
    problems.push({
      language: null,
      field: null,
      code: EmailTemplateErrors.TemplateDraftUnchanged,
      message: 'the draft has no languages: add content for at least one',
    });
  else if (!languages.some((language) => language.language === candidate.defaultLanguage))
    problems.push({
      language: null,
      field: null,
      code: EmailTemplateErrors.TemplateDefaultLanguageMissing,
      message: `the default language ${candidate.defaultLanguage} has no content in the draft`,
    });
  for (const language of languages) {
    const at = (field: string, code: string, message: string) =>
      problems.push({ language: language.language, field, code, message });
    if (!language.subject?.trim())
      at('subject', EmailTemplateErrors.TemplateLanguageIncomplete, 'a subject is required');
    if (!language.html?.trim() && !language.text?.trim())
      at(
        'html',
        EmailTemplateErrors.TemplateLanguageIncomplete,
        'a body (html or text) is required',
      );
    let htmlRefused = false;
    for (const field of ['subject', 'preview_text', 'html', 'text'] as const) {
      const source = language[field];
      if (!source) continue;
      const engine = field === 'subject' || field === 'text' ? plainLiquid : undefined;
      for (const message of liquidProblems(source, engine)) {
        at(field, EmailTemplateErrors.TemplateLiquidInvalid, message);
        if (field === 'html') htmlRefused = true;
      }
    }
    // Publishing derives the text body from the HTML source; stripping tags can join markup
    // (`{<b></b>{ x`), and that text is parsed as Liquid at every send.
    if (language.html && !language.text && !htmlRefused)
      for (const message of derivedTextProblems(language.html))
        at('html', EmailTemplateErrors.TemplateLiquidInvalid, message);
  }
  if (languages.length > 0 && unchanged(candidate))
    problems.push({
      language: null,
      field: null,
      code: EmailTemplateErrors.TemplateDraftUnchanged,
      message: 'the draft is identical to the live version: change something before submitting',
    });
  return problems;
}

function unchanged(candidate: SubmitCandidate): boolean {
  const live = Object.entries(candidate.live);
  if (live.length !== candidate.languages.length) return false;
  if (candidate.liveDefaultLanguage !== candidate.defaultLanguage) return false;
  return candidate.languages.every(
    (language) => candidate.live[language.language] === language.content_hash,
  );
}

/** A problem's `param` in a refused submit's details: `languages.fr.subject`, or `body`. */
export function problemParam(problem: SubmitProblem): string {
  if (!problem.language)
    return problem.code === EmailTemplateErrors.TemplateDefaultLanguageMissing
      ? 'default_language'
      : 'body';
  return `languages.${problem.language}${problem.field ? `.${problem.field}` : ''}`;
}

/**
 * What is wrong with the text body derived from `html` (a language without its own text): stripping
 * tags can join markup into Liquid that does not parse, and that text is parsed at every send.
 */
export function derivedTextProblems(html: string): string[] {
  return liquidProblems(textFromHtml(html), plainLiquid).map(
    (message) =>
      `the text body derived from the HTML is not valid Liquid (${message}): write a text body, or keep each Liquid tag and output inside one element`,
  );
}
