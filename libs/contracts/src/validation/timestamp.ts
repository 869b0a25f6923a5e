/**
 * ISO 8601 / RFC 3339 date-time with a time zone: `2030-01-02T09:30:00Z`,
 * `2030-01-02T09:30:00.123+02:00`, `2030-01-02T09:30+0200` (seconds and fractions optional).
 */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Instants written with a four-digit year in UTC: `toISOString` writes others as `+010000-...`. */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The instant a timestamp names, or undefined when it is not an ISO 8601 date-time with a time
 * zone or names a date that does not exist (`2026-02-30`, `24:00`): JavaScript's `Date.parse`
 * accepts both, and a time without a zone would be read in the server's zone. An instant whose
 * year in UTC has other than four digits (`9999-12-31T23:00:00-01:00`) is refused too: its ISO
 * form is not one PostgreSQL reads.
 */
export function parseTimestamp(text: string): Date | undefined {
  const match = TIMESTAMP.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zulu, sign, oh, om] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMinutes = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  if (!zulu && (Number(oh) > 23 || Number(om) > 59)) return undefined;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const local = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  // Date.UTC reads years 0-99 as 1900-1999.
  local.setUTCFullYear(year);
  const utc = local.getTime() - offsetMinutes * 60_000;
  if (Number.isNaN(utc) || utc < EARLIEST || utc > LATEST) return undefined;
  return new Date(utc);
}
