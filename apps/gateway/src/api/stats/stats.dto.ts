import {
  SMS_CATEGORIES,
  SMS_STATS_LIFECYCLE_SORT_METRICS,
  SMS_STATS_SORT_METRICS,
} from '@switchboard/contracts';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { TAG_FILTER } from '../../pipeline/http/list-filters';
import { QueryBoolean } from '../../pipeline/http/list-query.dto';

/*
 * Query shapes of the stats routes of every channel: presence, types and lengths. The window's
 * rules (forms, lengths, timezone, one dimension filter, trend caps) are the owning service's,
 * from the shared rules in libs/contracts (ADR 18), which answer them with 422 and details.
 */

const BOUND = /^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt][0-9:.]+([Zz]|[+-][0-9]{2}:?[0-9]{2}))?$/;
const boundMessage = (param: string) =>
  `${param} must be a calendar day (YYYY-MM-DD) or an RFC 3339 instant`;

/** `from`, `to` and `timezone`: what every stats route takes. */
export class StatsWindowQuery {
  @IsOptional() @IsString() @Matches(BOUND, { message: boundMessage('from') }) from?: string;
  @IsOptional() @IsString() @Matches(BOUND, { message: boundMessage('to') }) to?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64) timezone?: string;
}

export class StatsCompareQuery extends StatsWindowQuery {
  @IsOptional()
  @IsIn(['previous_period'], { message: 'compare must be previous_period' })
  compare?: 'previous_period';
}

/** The ranked breakdowns without a sort: `limit` only (1 to 200, default 50). */
export class StatsLimitQuery extends StatsWindowQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200) limit?: number;
}

/** SMS dimension filters, one at most (the service refuses two with 422). */
export class SmsStatsSeriesQuery extends StatsWindowQuery {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(32) originator?: string;
  @IsOptional()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code (GB, US, ZZ)' })
  country?: string;
  @IsOptional()
  @IsIn(SMS_CATEGORIES, { message: `category must be one of ${SMS_CATEGORIES.join(', ')}` })
  category?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64) carrier?: string;
}

export class SmsStatsSummaryQuery extends SmsStatsSeriesQuery {
  @IsOptional()
  @IsIn(['previous_period'], { message: 'compare must be previous_period' })
  compare?: 'previous_period';
}

class TrendQuery extends StatsLimitQuery {
  @IsOptional() @QueryBoolean() @IsBoolean() include_trend?: boolean;
  @IsOptional()
  @IsIn(['daily', 'hourly'], { message: 'trend_grain must be daily or hourly' })
  trend_grain?: 'daily' | 'hourly';
}

/** Originators, countries, categories, carriers and tags: any lifecycle count or rate. */
export class SmsStatsBreakdownQuery extends TrendQuery {
  @IsOptional()
  @IsIn(SMS_STATS_SORT_METRICS, {
    message: `sort must be one of ${SMS_STATS_SORT_METRICS.join(', ')}`,
  })
  sort?: (typeof SMS_STATS_SORT_METRICS)[number];
}

/** Error codes: lifecycle counts only (no rates to sort on). */
export class SmsStatsErrorCodesQuery extends TrendQuery {
  @IsOptional()
  @IsIn(SMS_STATS_LIFECYCLE_SORT_METRICS, {
    message: `sort must be one of ${SMS_STATS_LIFECYCLE_SORT_METRICS.join(', ')}`,
  })
  sort?: (typeof SMS_STATS_SORT_METRICS)[number];
}

/** WhatsApp dimension filters, one at most (the service refuses two with 422). */
export class WhatsAppStatsSeriesQuery extends StatsWindowQuery {
  /** A template id (`wat_...`) or slug. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(512) template?: string;
  @IsOptional()
  @Matches(/^[a-z_]{1,32}$/, { message: 'category must be a template category such as utility' })
  category?: string;
  @IsOptional()
  @Matches(/^\+[1-9][0-9]{6,14}$/, { message: 'phone_number must be E.164 (+31612345678)' })
  phone_number?: string;
  /** `name` or `name:value`. */
  @IsOptional()
  @Matches(TAG_FILTER, {
    message:
      'tag must be name or name:value (letters, digits, _ and -; name up to 32, value up to 64)',
  })
  tag?: string;
}

export class WhatsAppStatsSummaryQuery extends WhatsAppStatsSeriesQuery {
  @IsOptional()
  @IsIn(['previous_period'], { message: 'compare must be previous_period' })
  compare?: 'previous_period';
}
