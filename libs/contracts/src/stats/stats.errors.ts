import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/**
 * Error codes of the stats queries every channel answers (email, SMS, WhatsApp): the rules that
 * span several parameters. A single parameter's problem (a malformed day, an unknown timezone,
 * `limit` above 200) is `E01001` with `details` naming it.
 */
export const StatsErrorCatalog = {
  E01150: {
    status: 422,
    type: 'validation_error',
    name: 'StatsWindowFormsMixed',
    message: '`from` and `to` must use the same form: both calendar days or both instants.',
    description:
      'A stats window is either calendar days (`YYYY-MM-DD`, a day window of at most 365 days) or hours (RFC 3339 instants rounded down to the hour, an hour window of at most 720 hours). Give `from` and `to` in the same form; the form you use selects the grain the answer is computed at. `param` names the bound that differs.',
  },
  E01151: {
    status: 422,
    type: 'validation_error',
    name: 'StatsWindowTooLong',
    message: 'The stats window is longer than allowed.',
    description:
      'A day window may cover at most 365 days and an hour window at most 720 hours (30 days), both bounds included. Narrow the window, or ask for days instead of hours. With `include_trend=true` a daily trend allows at most 90 days and an hourly trend 720 hours.',
  },
  E01152: {
    status: 422,
    type: 'validation_error',
    name: 'StatsWindowReversed',
    message: '`from` is after `to`.',
    description:
      'Both bounds of a stats window are inclusive and `from` must not be after `to`. When one bound is omitted it defaults relative to the other (30 days or 168 hours before `to`; `to` defaults to today or the current hour in `timezone`).',
  },
  E01153: {
    status: 422,
    type: 'validation_error',
    name: 'StatsFiltersExclusive',
    message: 'Only one dimension filter may be set per stats request.',
    description:
      'The dimension filters of a stats request (for SMS `originator`, `country`, `category`, `carrier`; for WhatsApp `template`, `category`, `phone_number`, `tag`) are mutually exclusive: set one, or none for the whole workspace. For figures across a dimension, ask its breakdown (`/stats/countries`, `/stats/tags`...) instead. `details` names every filter that was set.',
  },
  E01154: {
    status: 422,
    type: 'validation_error',
    name: 'StatsTrendTooLarge',
    message: 'A breakdown with `include_trend=true` allows `limit` up to 50 and a shorter window.',
    description:
      'Each row of a breakdown asked with `include_trend=true` carries its own series, so the request is capped: `limit` at most 50, and a window of at most 90 days with `trend_grain=daily` or 720 hours with `trend_grain=hourly`. Lower `limit`, narrow the window, or leave `include_trend` off.',
  },
  E01155: {
    status: 422,
    type: 'validation_error',
    name: 'StatsOffsetWithTimezone',
    message: 'With `timezone` set, pass `from` and `to` as calendar days or `Z` instants.',
    description:
      'When `timezone` is set it decides the day and hour boundaries, so a bound carrying its own numeric UTC offset (`2026-05-01T00:00:00+05:45`) is ambiguous and refused. Pass a calendar day (`2026-05-01`, read as a local day) or a UTC instant ending in `Z`.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export const StatsErrors = codesOf(StatsErrorCatalog);
