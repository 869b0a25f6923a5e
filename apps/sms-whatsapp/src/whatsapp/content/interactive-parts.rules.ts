import { WHATSAPP_CONTENT_LIMITS as L, WhatsAppContentErrors } from '@switchboard/contracts';
import type { WhatsAppInteractiveSend } from '@switchboard/contracts';
import { checkMediaUrl, checkText, isObject, refuseUnknown } from './content-problems';
import type { Report } from './content-problems';

type Header = NonNullable<WhatsAppInteractiveSend['header']>;
type Button = NonNullable<WhatsAppInteractiveSend['buttons']>[number];

/** Reports `value` when `seen` holds it already, and remembers it. */
function refuseRepeat(
  value: string | undefined,
  seen: Set<string>,
  refuse: (value: string) => void,
) {
  if (value === undefined) return;
  if (seen.has(value)) refuse(value);
  seen.add(value);
}

/** Refuses a label seen before in `seen` (labels are unique within their scope). */
export function uniqueLabel(
  label: string | undefined,
  at: string,
  seen: Set<string>,
  report: Report,
) {
  refuseRepeat(label, seen, (repeated) =>
    report(
      at,
      `repeats the label "${repeated}": labels are unique`,
      WhatsAppContentErrors.WhatsAppInteractiveDuplicateLabel,
    ),
  );
}

/** A reply names the option tapped by its slug (Meta's row or button id): slugs are unique too. */
export function uniqueSlug(
  slug: string | undefined,
  at: string,
  seen: Set<string>,
  report: Report,
) {
  refuseRepeat(slug, seen, (repeated) =>
    report(
      at,
      `repeats the slug "${repeated}": a reply names its option by slug, so slugs are unique`,
    ),
  );
}

export function checkHeader(
  value: unknown,
  at: string,
  allowed: readonly string[],
  report: Report,
): Header | undefined {
  if (!isObject(value)) return void report(at, 'must be an object');
  const type = value.type;
  if (typeof type !== 'string' || !['text', 'image', 'video', 'document'].includes(type))
    return void report(`${at}.type`, 'must be one of text, image, video, document');
  if (!allowed.includes(type))
    return void report(`${at}.type`, `must be ${allowed.join(' or ')} here`);
  if (type === 'text') {
    refuseUnknown(value, ['type', 'text'], at, report, 'a text header');
    const text = checkText(value.text, `${at}.text`, report, { max: L.headerText, required: true });
    return text === undefined ? undefined : { type, text };
  }
  refuseUnknown(value, ['type', 'url'], at, report, `a ${type} header`);
  const url = checkMediaUrl(value.url, `${at}.url`, report);
  return url === undefined ? undefined : ({ type, url } as Header);
}

/** A `quick_reply` or `cta_url` button; `kinds` are the ones this place takes. */
export function checkButton(
  value: unknown,
  at: string,
  kinds: readonly string[],
  report: Report,
): Button | undefined {
  if (!isObject(value)) return void report(at, 'must be an object');
  const type = value.type;
  if (typeof type !== 'string' || !kinds.includes(type))
    return void report(`${at}.type`, `must be ${kinds.join(' or ')}`);
  refuseUnknown(value, ['type', type], at, report, `a ${type} button`);
  const body = value[type];
  if (!isObject(body)) return void report(`${at}.${type}`, 'is required: an object');
  const text = checkText(body.text, `${at}.${type}.text`, report, {
    max: L.buttonLabel,
    required: true,
  });
  if (type === 'quick_reply') {
    refuseUnknown(body, ['slug', 'text'], `${at}.${type}`, report, 'a quick reply');
    const slug = checkText(body.slug, `${at}.quick_reply.slug`, report, {
      max: L.buttonSlug,
      required: true,
    });
    return slug === undefined || text === undefined
      ? undefined
      : { type, quick_reply: { slug, text } };
  }
  refuseUnknown(body, ['text', 'url'], `${at}.${type}`, report, 'a link button');
  const url = checkMediaUrl(body.url, `${at}.cta_url.url`, report, { httpAllowed: true });
  return url === undefined || text === undefined
    ? undefined
    : { type: 'cta_url', cta_url: { text, url } };
}
