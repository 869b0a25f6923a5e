/**
 * Time-zone arithmetic for stats windows, on the runtime's IANA database (Intl): the offset of a
 * zone at an instant, and the UTC instant a local wall-clock time names. No library: the answers
 * only need offsets at a handful of instants per request.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/** Whether `timezone` is an IANA zone name the runtime knows (`Asia/Kathmandu`, `UTC`). */
export function isKnownTimezone(timezone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(timezone)) return false;
  try {
    formatterOf(timezone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `instant`, in minutes (Kathmandu: 345). */
export function offsetMinutesAt(timezone: string, instant: number): number {
  const parts = Object.fromEntries(
    formatterOf(timezone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((local - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The UTC instant of a local wall-clock time given as if it were UTC (`localAsUtc`). Twice
 * corrected, so a time next to a daylight-saving change lands on the offset in force then; a
 * wall-clock time skipped by the change maps to the instant after the gap.
 */
export function instantOfLocal(timezone: string, localAsUtc: number): number {
  let guess = localAsUtc - offsetMinutesAt(timezone, localAsUtc) * 60_000;
  guess = localAsUtc - offsetMinutesAt(timezone, guess) * 60_000;
  return guess;
}

/** The local calendar day (`YYYY-MM-DD`) an instant falls on in `timezone`. */
export function localDayOf(timezone: string, instant: number): string {
  const local = instant + offsetMinutesAt(timezone, instant) * 60_000;
  return new Date(local).toISOString().slice(0, 10);
}

/** The start of the local hour an instant falls in, as a UTC instant. */
export function localHourStart(timezone: string, instant: number): number {
  const offset = offsetMinutesAt(timezone, instant) * 60_000;
  return Math.floor((instant + offset) / 3_600_000) * 3_600_000 - offset;
}
