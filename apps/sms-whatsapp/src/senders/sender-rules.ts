import { SMS_SENDER_CATEGORIES, SMS_SENDER_PATTERN } from '@switchboard/contracts';
import type { ErrorDetail, SmsSenderCategory } from '@switchboard/contracts';

/**
 * An alphanumeric sender as registered, or the problems with it. GSM practice (3GPP TS 23.040
 * alphanumeric originators, as carriers apply it): 1 to 11 characters of letters, digits and
 * spaces, at least one letter (all digits would read as a number), no space at either end
 * (carriers trim them, so the recipient would see another sender). Categories are a non-empty
 * set of the SMS categories, or absent for every category.
 */
export function checkedSender(
  sender: string,
  categories: string[] | undefined,
): { sender: string; categories: SmsSenderCategory[] | null } | ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!SMS_SENDER_PATTERN.test(sender))
    problems.push({
      param: 'sender',
      message:
        'must be 1 to 11 characters of letters A-Z, digits and spaces, with at least one letter',
    });
  else if (sender !== sender.trim())
    problems.push({ param: 'sender', message: 'must not start or end with a space' });
  let chosen: SmsSenderCategory[] | null = null;
  if (categories !== undefined) {
    const unknown = categories.filter(
      (category) => !(SMS_SENDER_CATEGORIES as readonly string[]).includes(category),
    );
    if (unknown.length)
      problems.push({
        param: 'categories',
        message: `must be among ${SMS_SENDER_CATEGORIES.join(', ')}; unknown: ${unknown.join(', ')}`,
      });
    else if (categories.length === 0)
      problems.push({
        param: 'categories',
        message: 'leave it out for every category, or name some',
      });
    else chosen = SMS_SENDER_CATEGORIES.filter((category) => categories.includes(category));
  }
  return problems.length ? problems : { sender, categories: chosen };
}

/** The categories a registration for anything but `marketing` covers. */
const NON_MARKETING = ['transactional', 'authentication', 'service'];

/**
 * Whether a sender registered for `categories` (null: every one) may send `category`, as the
 * SDK's `SmsMessageCategory` puts it: `marketing` covers all four; `transactional`,
 * `authentication` or `service` covers those three and not `marketing`.
 */
export function senderCovers(categories: readonly string[] | null, category: string): boolean {
  if (categories === null || categories.includes('marketing')) return true;
  return category !== 'marketing' && categories.some((c) => NON_MARKETING.includes(c));
}

/**
 * `senderCovers` in SQL, over a `categories text[]` column and the category parameter: keep the
 * two in step.
 */
export function senderCoversSql(column: string, category: string): string {
  return `(${column} IS NULL OR 'marketing' = ANY (${column})
    OR (${category} <> 'marketing' AND ${column} && ARRAY['${NON_MARKETING.join("', '")}']))`;
}
