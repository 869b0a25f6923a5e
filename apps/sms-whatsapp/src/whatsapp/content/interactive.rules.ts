import { WHATSAPP_CONTENT_LIMITS as L, WhatsAppContentErrors } from '@switchboard/contracts';
import type { WhatsAppInteractiveSend } from '@switchboard/contracts';
import { checkList, checkText, isObject, refuseUnknown } from './content-problems';
import { checkButton, checkHeader, uniqueLabel, uniqueSlug } from './interactive-parts.rules';
import type { Report } from './content-problems';

type Kind = WhatsAppInteractiveSend['type'];
type Header = NonNullable<WhatsAppInteractiveSend['header']>;
type Card = NonNullable<WhatsAppInteractiveSend['cards']>[number];

const { WhatsAppInteractiveLimitExceeded } = WhatsAppContentErrors;

/** Per kind: its own field, the header kinds it takes, whether it takes a footer. */
const KINDS: Record<Kind, { field?: string; headers: readonly string[]; footer: boolean }> = {
  button: { field: 'buttons', headers: ['text', 'image', 'video', 'document'], footer: true },
  list: { field: 'list', headers: ['text'], footer: true },
  cta_url: { field: 'cta_url', headers: ['text', 'image', 'video', 'document'], footer: true },
  carousel: { field: 'cards', headers: [], footer: false },
  location_request_message: { headers: [], footer: false },
  request_contact_info: { headers: [], footer: false },
};
const PAYLOAD_FIELDS = ['buttons', 'list', 'cta_url', 'cards'];

function checkList_(
  value: unknown,
  report: Report,
  seen: Set<string>,
): WhatsAppInteractiveSend['list'] {
  const at = 'interactive.list';
  if (!isObject(value)) return void report(at, 'is required on a list message: an object');
  refuseUnknown(value, ['button_text', 'sections'], at, report, 'a list');
  const buttonText = checkText(value.button_text, `${at}.button_text`, report, {
    max: L.listButtonText,
    required: true,
  });
  const sections =
    checkList(value.sections, `${at}.sections`, report, {
      max: L.sections,
      limitCode: WhatsAppInteractiveLimitExceeded,
    }) ?? [];
  let rowCount = 0;
  const slugs = new Set<string>();
  const result = sections.map((section, s) => {
    const sat = `${at}.sections[${s}]`;
    if (!isObject(section)) return void report(sat, 'must be an object');
    refuseUnknown(section, ['title', 'rows'], sat, report, 'a section');
    const title = checkText(section.title, `${sat}.title`, report, {
      max: L.sectionTitle,
      required: true,
    });
    const rows = (
      checkList(section.rows, `${sat}.rows`, report, {
        max: L.rows,
        limitCode: WhatsAppInteractiveLimitExceeded,
      }) ?? []
    ).map((row, r) => {
      const rat = `${sat}.rows[${r}]`;
      rowCount += 1;
      if (!isObject(row)) return void report(rat, 'must be an object');
      refuseUnknown(row, ['slug', 'text', 'description'], rat, report, 'a row');
      const slug = checkText(row.slug, `${rat}.slug`, report, { max: L.rowSlug, required: true });
      const text = checkText(row.text, `${rat}.text`, report, {
        max: L.rowLabel,
        required: true,
      });
      const description = checkText(row.description, `${rat}.description`, report, {
        max: L.rowDescription,
      });
      uniqueLabel(text, `${rat}.text`, seen, report);
      uniqueSlug(slug, `${rat}.slug`, slugs, report);
      return slug === undefined || text === undefined
        ? undefined
        : { slug, text, ...(description !== undefined && { description }) };
    });
    return { title: title ?? '', rows: rows.filter((row) => row !== undefined) };
  });
  if (rowCount > L.rows)
    report(
      `${at}.sections`,
      `must hold at most ${L.rows} rows across all sections (has ${rowCount})`,
      WhatsAppInteractiveLimitExceeded,
    );
  return {
    button_text: buttonText ?? '',
    sections: result.filter((section) => section !== undefined),
  };
}

/** The button kinds of a card, as a comparable signature (`quick_reply x2`). */
const signature = (buttons: unknown[]) =>
  buttons.map((button) => (isObject(button) ? String(button.type) : '?')).join(',');

function checkCards(value: unknown, report: Report): Card[] | undefined {
  const at = 'interactive.cards';
  const cards = checkList(value, at, report, {
    min: L.cardsMin,
    max: L.cardsMax,
    limitCode: WhatsAppInteractiveLimitExceeded,
  });
  if (!cards) return undefined;
  let firstSignature: string | undefined;
  const result = cards.map((card, c) => {
    const cat = `${at}[${c}]`;
    if (!isObject(card)) return void report(cat, 'must be an object');
    refuseUnknown(card, ['header', 'body_text', 'buttons'], cat, report, 'a card');
    const header =
      card.header === undefined
        ? void report(`${cat}.header`, 'is required')
        : checkHeader(card.header, `${cat}.header`, ['image', 'video'], report);
    const bodyText = checkText(card.body_text, `${cat}.body_text`, report, { max: L.cardBodyText });
    if (bodyText !== undefined && bodyText.split('\n').length - 1 > L.cardBodyLineBreaks)
      report(`${cat}.body_text`, `must hold at most ${L.cardBodyLineBreaks} line breaks`);
    const given =
      checkList(card.buttons, `${cat}.buttons`, report, {
        max: L.buttons,
        limitCode: WhatsAppInteractiveLimitExceeded,
      }) ?? [];
    const seen = new Set<string>();
    const slugs = new Set<string>();
    const buttons = given.map((button, b) => {
      const checked = checkButton(
        button,
        `${cat}.buttons[${b}]`,
        ['quick_reply', 'cta_url'],
        report,
      );
      uniqueLabel(
        checked?.quick_reply?.text ?? checked?.cta_url?.text,
        `${cat}.buttons[${b}].${checked?.type ?? 'quick_reply'}.text`,
        seen,
        report,
      );
      uniqueSlug(
        checked?.quick_reply?.slug,
        `${cat}.buttons[${b}].quick_reply.slug`,
        slugs,
        report,
      );
      return checked;
    });
    const kinds = new Set(given.map((button) => (isObject(button) ? button.type : undefined)));
    if (kinds.has('cta_url') && given.length > 1)
      report(
        `${cat}.buttons`,
        'must be one cta_url button or up to 3 quick_reply buttons, not mixed',
        kinds.size > 1 ? undefined : WhatsAppInteractiveLimitExceeded,
      );
    const own = signature(given);
    if (firstSignature === undefined) firstSignature = own;
    else if (own !== firstSignature)
      report(
        `${cat}.buttons`,
        `must carry the same buttons as the first card (${firstSignature || 'none'}), not ${own || 'none'}`,
        WhatsAppContentErrors.WhatsAppInteractiveCarouselButtonsMismatch,
      );
    if (!header || buttons.some((button) => button === undefined)) return undefined;
    return { header, ...(bodyText !== undefined && { body_text: bodyText }), buttons } as Card;
  });
  return result.every((card) => card !== undefined) ? result : undefined;
}

/** Interactive content: per kind its own field, header, body and footer rules, and its limits. */
export function checkInteractive(
  value: unknown,
  report: Report,
): WhatsAppInteractiveSend | undefined {
  const at = 'interactive';
  if (!isObject(value)) return void report(at, 'must be an object');
  const type = value.type as Kind;
  const rules = typeof type === 'string' ? KINDS[type] : undefined;
  if (!rules || !Object.prototype.hasOwnProperty.call(KINDS, type))
    return void report(`${at}.type`, `must be one of ${Object.keys(KINDS).join(', ')}`);
  refuseUnknown(
    value,
    ['type', 'header', 'body_text', 'footer_text', ...PAYLOAD_FIELDS],
    at,
    report,
    'interactive content',
  );
  for (const field of PAYLOAD_FIELDS)
    if (field !== rules.field && value[field] !== undefined)
      report(`${at}.${field}`, `is not accepted on a ${type} message`);
  let header: Header | undefined;
  if (value.header !== undefined) {
    if (rules.headers.length === 0) report(`${at}.header`, `is not accepted on a ${type} message`);
    else header = checkHeader(value.header, `${at}.header`, rules.headers, report);
  }
  const max = type === 'list' ? L.listBodyText : L.bodyText;
  const bodyText = checkText(value.body_text, `${at}.body_text`, report, { max, required: true });
  let footerText: string | undefined;
  if (value.footer_text !== undefined) {
    if (!rules.footer) report(`${at}.footer_text`, `is not accepted on a ${type} message`);
    else
      footerText = checkText(value.footer_text, `${at}.footer_text`, report, { max: L.footerText });
  }
  const result: Record<string, unknown> = { type, body_text: bodyText };
  if (header) result.header = header;
  if (footerText !== undefined) result.footer_text = footerText;
  const seen = new Set<string>();
  if (type === 'button') {
    const given =
      checkList(value.buttons, `${at}.buttons`, report, {
        max: L.buttons,
        limitCode: WhatsAppInteractiveLimitExceeded,
      }) ?? [];
    const slugs = new Set<string>();
    result.buttons = given.map((button, b) => {
      const checked = checkButton(button, `${at}.buttons[${b}]`, ['quick_reply'], report);
      uniqueLabel(checked?.quick_reply?.text, `${at}.buttons[${b}].quick_reply.text`, seen, report);
      uniqueSlug(checked?.quick_reply?.slug, `${at}.buttons[${b}].quick_reply.slug`, slugs, report);
      return checked;
    });
  } else if (type === 'list') result.list = checkList_(value.list, report, seen);
  else if (type === 'cta_url') {
    const checked = checkButton(
      { type: 'cta_url', cta_url: value.cta_url ?? null },
      at,
      ['cta_url'],
      report,
    );
    result.cta_url = checked?.cta_url;
  } else if (type === 'carousel') result.cards = checkCards(value.cards, report);
  return bodyText === undefined ? undefined : (result as WhatsAppInteractiveSend);
}
