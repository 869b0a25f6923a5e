import { SMS_KEYWORD_LIMITS, SMS_KEYWORD_OPERATIONS } from '@switchboard/contracts';
import type { ErrorDetail, SmsKeywordOperation } from '@switchboard/contracts';
import { keywordKey } from './keyword-text';
import { fitsOneSegment } from './reply-length';

/** Operations whose behaviour the defaults fix, per country: they need the country's coverage. */
export const COUNTRY_OPERATIONS: ReadonlySet<string> = new Set(['stop', 'start', 'help', 'info']);

export function isOperation(value: unknown): value is SmsKeywordOperation {
  return (SMS_KEYWORD_OPERATIONS as readonly unknown[]).includes(value);
}

/** The keywords as stored and matched (normalised, distinct), or the problems with them. */
export function parseKeywords(value: unknown, problems: ErrorDetail[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push({ param: 'keywords', message: 'must be an array of strings' });
    return undefined;
  }
  if (value.length > SMS_KEYWORD_LIMITS.keywordsPerRule)
    problems.push({
      param: 'keywords',
      message: `must hold at most ${SMS_KEYWORD_LIMITS.keywordsPerRule} keywords`,
    });
  const keys: string[] = [];
  value.forEach((keyword: unknown, index) => {
    const key = typeof keyword === 'string' ? keywordKey(keyword) : '';
    if (!key || [...key].length > SMS_KEYWORD_LIMITS.keywordLength)
      problems.push({
        param: `keywords[${index}]`,
        message: `must be a word or phrase of 1 to ${SMS_KEYWORD_LIMITS.keywordLength} letters or digits (punctuation around it is ignored)`,
      });
    else if (!keys.includes(key)) keys.push(key);
  });
  return keys;
}

/** What a request says about the reply: a text, switched off (self-managed), or untouched. */
export type ReplyChange = { text: string | null; selfManaged: boolean } | undefined;

/**
 * `reply: null` needs `confirmed_self_managed: true`, and `confirmed_self_managed` is refused
 * alongside a reply, so the two never disagree. A reply and the carrier-mandated suffix must fit
 * one SMS together.
 */
export function parseReply(
  input: { reply?: unknown; confirmed_self_managed?: unknown },
  suffix: string | null,
  problems: ErrorDetail[],
): ReplyChange {
  const confirmed = input.confirmed_self_managed;
  if (confirmed !== undefined && typeof confirmed !== 'boolean')
    problems.push({ param: 'confirmed_self_managed', message: 'must be a boolean' });
  if (input.reply === undefined) {
    if (confirmed !== undefined)
      problems.push({
        param: 'confirmed_self_managed',
        message: 'is accepted only together with reply: null',
      });
    return undefined;
  }
  if (input.reply === null) {
    if (confirmed !== true)
      problems.push({
        param: 'confirmed_self_managed',
        message:
          'must be true with reply: null, confirming you send this reply from your own system',
      });
    return { text: null, selfManaged: true };
  }
  if (confirmed !== undefined)
    problems.push({
      param: 'confirmed_self_managed',
      message: 'is refused when a reply is given: set reply to null to switch the auto-reply off',
    });
  const text = typeof input.reply === 'string' ? input.reply.trim() : '';
  if (!text || [...text].length > SMS_KEYWORD_LIMITS.replyLength) {
    problems.push({
      param: 'reply',
      message: `must be a text of 1 to ${SMS_KEYWORD_LIMITS.replyLength} characters, or null`,
    });
  } else if (!fitsOneSegment(suffix ? `${text} ${suffix}` : text)) {
    problems.push({
      param: 'reply',
      message: suffix
        ? `must fit one SMS together with the suffix carriers require ("${suffix}")`
        : 'must fit one SMS (160 GSM-7 characters, or 70 with other characters)',
    });
  }
  return { text, selfManaged: false };
}
