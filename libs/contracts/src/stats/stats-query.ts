import type { ErrorDetail } from '../error-envelope';
import { parseTimestamp } from '../validation/timestamp';
import type { StatsErrorCatalog } from './stats.errors';
import { instantOfLocal, isKnownTimezone, localDayOf, localHourStart } from './stats-zone';

export type StatsGrain = 'day' | 'hour';
/** Which forms of `from`/`to` an operation takes: the summaries take both, series one. */
export type StatsBoundForms = StatsGrain | 'either';

/**
 * A stats query's problem, thrown by the shared rules and turned into the service's `AppError`
 * (this library stays free of Nest): `E01001` for one parameter, an `E0115x` for a rule across
 * several.
 */
export class StatsQueryProblem extends Error {
  constructor(
    readonly code: 'E01001' | keyof typeof StatsErrorCatalog,
    readonly details: ErrorDetail[],
  ) {
    super(details.map((detail) => detail.message).join('; '));
  }
}

export interface StatsWindowQuery {
  from?: string;
  to?: string;
  timezone?: string;
}

/** The window a stats answer covers: inclusive bounds as echoed, and the UTC span `[start, end)`. */
export interface StatsWindow {
  grain: StatsGrain;
  timezone: string;
  from: string;
  to: string;
  start: Date;
  end: Date;
  /** Days or hours in the window, both bounds included. */
  length: number;
}

export const MAX_WINDOW_DAYS = 365;
export const MAX_WINDOW_HOURS = 720;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day as midnight UTC of that date, or undefined when it is not one. */
function dayValue(text: string): number | undefined {
  const match = CALENDAR_DAY.exec(text);
  if (!match) return undefined;
  const value = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(value).toISOString().slice(0, 10) === text ? value : undefined;
}

const dayLabel = (value: number) => new Date(value).toISOString().slice(0, 10);
/** An hour bound as RFC 3339 in UTC, without milliseconds (`2026-05-01T13:00:00Z`). */
export const hourLabel = (instant: number) => new Date(instant).toISOString().replace('.000Z', 'Z');

type Bound = { form: 'day'; value: number } | { form: 'hour'; value: number };

function boundOf(
  param: 'from' | 'to',
  text: string,
  forms: StatsBoundForms,
  timezone: string,
  zoned: boolean,
): Bound {
  const day = forms !== 'hour' ? dayValue(text) : undefined;
  if (day !== undefined) return { form: 'day', value: day };
  const instant = forms !== 'day' ? parseTimestamp(text) : undefined;
  if (!instant) {
    const expected =
      forms === 'day'
        ? 'a calendar day (YYYY-MM-DD)'
        : forms === 'hour'
          ? 'an RFC 3339 instant (2026-05-01T13:00:00Z)'
          : 'a calendar day (YYYY-MM-DD) or an RFC 3339 instant';
    throw new StatsQueryProblem('E01001', [{ param, message: `${param} must be ${expected}` }]);
  }
  if (zoned && !/[Zz]$/.test(text))
    throw new StatsQueryProblem('E01155', [
      { param, message: `${param} carries a UTC offset while timezone is set: use a Z instant` },
    ]);
  return { form: 'hour', value: localHourStart(timezone, instant.getTime()) };
}

export interface WindowOptions {
  forms: StatsBoundForms;
  now?: number;
  /** Days before `to` that `from` defaults to (30; 29 keeps an hourly trend within 720 hours). */
  defaultDays?: number;
}

/**
 * Resolves `from`, `to` and `timezone` by the SDK's rules: one form for both bounds (days or hours,
 * 422 when mixed), defaults relative to the other bound and to now in `timezone`, at most 365
 * days or 720 hours, `from` not after `to`.
 */
export function resolveStatsWindow(query: StatsWindowQuery, options: WindowOptions): StatsWindow {
  const timezone = query.timezone ?? 'UTC';
  if (!isKnownTimezone(timezone))
    throw new StatsQueryProblem('E01001', [
      { param: 'timezone', message: 'timezone must be an IANA zone name such as Asia/Kathmandu' },
    ]);
  const zoned = query.timezone !== undefined;
  const from =
    query.from === undefined
      ? undefined
      : boundOf('from', query.from, options.forms, timezone, zoned);
  const to =
    query.to === undefined ? undefined : boundOf('to', query.to, options.forms, timezone, zoned);
  if (from && to && from.form !== to.form)
    throw new StatsQueryProblem('E01150', [
      {
        param: 'to',
        message: `to must use the same form as from (a ${from.form === 'day' ? 'calendar day' : 'instant'})`,
      },
    ]);
  const grain: StatsGrain = from?.form ?? to?.form ?? (options.forms === 'hour' ? 'hour' : 'day');
  const now = options.now ?? Date.now();
  if (grain === 'day') {
    const toDay = to?.value ?? dayValue(localDayOf(timezone, now)) ?? 0;
    const fromDay = from?.value ?? toDay - (options.defaultDays ?? 30) * DAY;
    return dayWindow(timezone, fromDay, toDay);
  }
  const toHour = to?.value ?? localHourStart(timezone, now);
  const fromHour = from?.value ?? toHour - 168 * HOUR;
  return hourWindow(timezone, fromHour, toHour);
}

function dayWindow(timezone: string, fromDay: number, toDay: number): StatsWindow {
  if (fromDay > toDay)
    throw new StatsQueryProblem('E01152', [
      { param: 'from', message: 'from must not be after to' },
    ]);
  const length = Math.round((toDay - fromDay) / DAY) + 1;
  if (length > MAX_WINDOW_DAYS)
    throw new StatsQueryProblem('E01151', [
      {
        param: 'from',
        message: `a day window may cover at most ${MAX_WINDOW_DAYS} days (this one covers ${length})`,
      },
    ]);
  return {
    grain: 'day',
    timezone,
    from: dayLabel(fromDay),
    to: dayLabel(toDay),
    start: new Date(instantOfLocal(timezone, fromDay)),
    end: new Date(instantOfLocal(timezone, toDay + DAY)),
    length,
  };
}

function hourWindow(timezone: string, fromHour: number, toHour: number): StatsWindow {
  if (fromHour > toHour)
    throw new StatsQueryProblem('E01152', [
      { param: 'from', message: 'from must not be after to' },
    ]);
  const length = Math.round((toHour - fromHour) / HOUR) + 1;
  if (length > MAX_WINDOW_HOURS)
    throw new StatsQueryProblem('E01151', [
      {
        param: 'from',
        message: `an hour window may cover at most ${MAX_WINDOW_HOURS} hours (this one covers ${length})`,
      },
    ]);
  return {
    grain: 'hour',
    timezone,
    from: hourLabel(fromHour),
    to: hourLabel(toHour),
    start: new Date(fromHour),
    end: new Date(toHour + HOUR),
    length,
  };
}

/** The equal-length window ending immediately before `window` starts (`compare=previous_period`). */
export function previousWindow(window: StatsWindow): StatsWindow {
  if (window.grain === 'day') {
    const toDay = (dayValue(window.from) as number) - DAY;
    return dayWindow(window.timezone, toDay - (window.length - 1) * DAY, toDay);
  }
  const toHour = window.start.getTime() - HOUR;
  return hourWindow(window.timezone, toHour - (window.length - 1) * HOUR, toHour);
}

/** The bucket labels of a window in order: its days, or its hours (zero-filled series). */
export function bucketsOf(window: StatsWindow): string[] {
  if (window.grain === 'day') {
    const first = dayValue(window.from) as number;
    return Array.from({ length: window.length }, (_, i) => dayLabel(first + i * DAY));
  }
  const first = window.start.getTime();
  return Array.from({ length: window.length }, (_, i) => hourLabel(first + i * HOUR));
}

/**
 * The one dimension filter a request sets among `names`, or undefined for none; 422 naming every
 * one set when there are several.
 */
export function singleDimensionFilter<K extends string>(
  query: Partial<Record<K, string>>,
  names: readonly K[],
): { dimension: K; value: string } | undefined {
  const set = names.filter((name) => query[name] !== undefined);
  if (set.length > 1)
    throw new StatsQueryProblem(
      'E01153',
      set.map((name) => ({
        param: name,
        message: `${name} cannot be combined with ${set.filter((n) => n !== name).join(', ')}`,
      })),
    );
  return set.length ? { dimension: set[0], value: query[set[0]] as string } : undefined;
}
