import { WHATSAPP_CONTENT_LIMITS as L } from '@switchboard/contracts';
import type { WhatsAppContactCardSend } from '@switchboard/contracts';
import { checkList, checkText, isObject, refuseUnknown } from './content-problems';
import type { Report } from './content-problems';

const NAME_PARTS = ['first_name', 'middle_name', 'last_name', 'prefix', 'suffix'] as const;
const CARD_FIELDS = ['name', 'org', 'birthday', 'phone_numbers', 'emails', 'urls', 'addresses'];
const ADDRESS_PARTS = ['street', 'city', 'state', 'zip', 'country', 'country_code', 'type'];

/** `YYYY-MM-DD` naming a day the calendar holds (WhatsApp rejects `2023-02-30`). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** An object of optional string parts, each at most `max`; undefined when absent. */
function parts(
  value: unknown,
  at: string,
  known: readonly string[],
  report: Report,
  max: (key: string) => number,
  what: string,
): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    report(at, 'must be an object');
    return undefined;
  }
  refuseUnknown(value, known, at, report, what);
  const result: Record<string, string> = {};
  for (const key of known) {
    const text = checkText(value[key], `${at}.${key}`, report, { max: max(key) });
    if (text !== undefined) result[key] = text;
  }
  return result;
}

/** A list of labelled values (`{phone_number, type}`), each with its required `field`. */
function entries(
  value: unknown,
  at: string,
  field: string,
  report: Report,
): Array<Record<string, string>> | undefined {
  const list = checkList(value, at, report, { min: 0, max: L.contactEntries });
  if (!list) return undefined;
  return list.flatMap((item, index) => {
    const entry = parts(
      item,
      `${at}[${index}]`,
      [field, 'type'],
      report,
      () => L.contactField,
      'this entry',
    );
    if (entry !== undefined && entry[field] === undefined)
      report(`${at}[${index}].${field}`, 'is required');
    return entry ? [entry] : [];
  });
}

/** Up to five cards; each `name` with `formatted_name` and at least one other part. */
export function checkContactCards(
  value: unknown,
  report: Report,
): WhatsAppContactCardSend[] | undefined {
  const cards = checkList(value, 'contact_cards', report, { max: L.contactCards });
  if (!cards) return undefined;
  const result: WhatsAppContactCardSend[] = [];
  cards.forEach((item, index) => {
    const at = `contact_cards[${index}]`;
    if (!isObject(item)) return report(at, 'must be an object');
    refuseUnknown(item, CARD_FIELDS, at, report, 'a contact card');
    if (item.name === undefined) report(`${at}.name`, 'is required');
    const name = parts(
      item.name,
      `${at}.name`,
      ['formatted_name', ...NAME_PARTS],
      report,
      (key) => (key === 'prefix' || key === 'suffix' ? L.namePart : L.nameLong),
      'a contact name',
    );
    if (name && name.formatted_name === undefined)
      report(`${at}.name.formatted_name`, 'is required');
    if (name && !NAME_PARTS.some((part) => name[part] !== undefined))
      report(`${at}.name`, `needs at least one of ${NAME_PARTS.join(', ')} beside formatted_name`);
    const org = parts(
      item.org,
      `${at}.org`,
      ['company', 'department', 'title'],
      report,
      () => L.orgPart,
      'an org',
    );
    const birthday = checkText(item.birthday, `${at}.birthday`, report, { max: 10 });
    if (birthday !== undefined && !isCalendarDate(birthday))
      report(`${at}.birthday`, 'must be a real date as YYYY-MM-DD');
    const phones = entries(item.phone_numbers, `${at}.phone_numbers`, 'phone_number', report);
    const emails = entries(item.emails, `${at}.emails`, 'email', report);
    const urls = entries(item.urls, `${at}.urls`, 'url', report);
    const addresses = checkList(item.addresses, `${at}.addresses`, report, {
      min: 0,
      max: L.contactEntries,
    })
      ?.map((address, i) =>
        parts(
          address,
          `${at}.addresses[${i}]`,
          ADDRESS_PARTS,
          report,
          () => L.contactField,
          'an address',
        ),
      )
      .filter((address): address is Record<string, string> => address !== undefined);
    result.push({
      name: name as WhatsAppContactCardSend['name'],
      ...(org && { org }),
      ...(birthday !== undefined && { birthday }),
      ...(phones && { phone_numbers: phones as WhatsAppContactCardSend['phone_numbers'] }),
      ...(emails && { emails: emails as WhatsAppContactCardSend['emails'] }),
      ...(urls && { urls: urls as WhatsAppContactCardSend['urls'] }),
      ...(addresses && { addresses }),
    });
  });
  return result;
}
