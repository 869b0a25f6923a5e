import {
  EMAIL_BOUNCE_CODE_SORT_METRICS,
  EMAIL_DELIVERY_SORT_METRICS,
  EMAIL_ENGAGEMENT_SORT_METRICS,
  EMAIL_SENDING_IP_SORT_METRICS,
  EMAIL_STATS_SORT_METRICS,
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
import { StatsWindowQuery } from './stats.dto';

/*
 * Query shapes of the email stats routes (SDK `bird.email.stats`): presence, types, enums. The
 * window's rules and the one-filter rule are the email service's (ADR 18), answered with 422.
 */

const CATEGORIES = ['marketing', 'transactional'];
const oneOf = (param: string, values: readonly string[]) => ({
  message: `${param} must be one of ${values.join(', ')}`,
});

class EmailCategoryQuery extends StatsWindowQuery {
  @IsOptional() @IsIn(CATEGORIES, oneOf('category', CATEGORIES)) category?: string;
}

/** One dimension filter at most (the service refuses two with 422). */
export class EmailStatsSeriesQuery extends EmailCategoryQuery {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(253) sending_domain?: string;
  @IsOptional()
  @Matches(TAG_FILTER, {
    message:
      'tag must be name or name:value (letters, digits, _ and -; name up to 32, value up to 64)',
  })
  tag?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(45) sending_ip?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(253) recipient_domain?: string;
  /** A template id. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64) template?: string;
}

export class EmailStatsSummaryQuery extends EmailStatsSeriesQuery {
  @IsOptional()
  @IsIn(['previous_period'], { message: 'compare must be previous_period' })
  compare?: 'previous_period';
}

class EmailLimitQuery extends EmailCategoryQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200) limit?: number;
}

class EmailTrendQuery extends EmailLimitQuery {
  @IsOptional() @QueryBoolean() @IsBoolean() include_trend?: boolean;
  @IsOptional()
  @IsIn(['daily', 'hourly'], { message: 'trend_grain must be daily or hourly' })
  trend_grain?: 'daily' | 'hourly';
}

/** Tags, sending domains, recipient domains, templates: any count or rate. */
export class EmailStatsBreakdownQuery extends EmailTrendQuery {
  @IsOptional()
  @IsIn(EMAIL_STATS_SORT_METRICS, oneOf('sort', EMAIL_STATS_SORT_METRICS))
  sort?: string;
}

/** Categories: the same without a category filter (the SDK has none there). */
export class EmailStatsCategoriesQuery extends StatsWindowQuery {
  @IsOptional()
  @IsIn(EMAIL_STATS_SORT_METRICS, oneOf('sort', EMAIL_STATS_SORT_METRICS))
  sort?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200) limit?: number;
  @IsOptional() @QueryBoolean() @IsBoolean() include_trend?: boolean;
  @IsOptional()
  @IsIn(['daily', 'hourly'], { message: 'trend_grain must be daily or hourly' })
  trend_grain?: 'daily' | 'hourly';
}

/** Broadcasts: no timezone and no trend in the SDK. */
export class EmailStatsBroadcastsQuery {
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: 'from must be a calendar day (YYYY-MM-DD)' })
  from?: string;
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: 'to must be a calendar day (YYYY-MM-DD)' })
  to?: string;
  @IsOptional() @IsIn(CATEGORIES, oneOf('category', CATEGORIES)) category?: string;
  @IsOptional()
  @IsIn(EMAIL_STATS_SORT_METRICS, oneOf('sort', EMAIL_STATS_SORT_METRICS))
  sort?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200) limit?: number;
}

export class EmailStatsSendingIpsQuery extends EmailTrendQuery {
  @IsOptional()
  @IsIn(EMAIL_SENDING_IP_SORT_METRICS, oneOf('sort', EMAIL_SENDING_IP_SORT_METRICS))
  sort?: string;
}

export class EmailStatsMailboxProvidersQuery extends EmailTrendQuery {
  @IsOptional()
  @IsIn(EMAIL_DELIVERY_SORT_METRICS, oneOf('sort', EMAIL_DELIVERY_SORT_METRICS))
  sort?: string;
}

export class EmailStatsLocationsQuery extends EmailLimitQuery {
  @IsOptional()
  @IsIn(['country', 'region', 'city'], oneOf('group_by', ['country', 'region', 'city']))
  group_by?: string;
  @IsOptional()
  @IsIn(EMAIL_ENGAGEMENT_SORT_METRICS, oneOf('sort', EMAIL_ENGAGEMENT_SORT_METRICS))
  sort?: string;
}

export class EmailStatsClientsQuery extends EmailLimitQuery {
  @IsOptional()
  @IsIn(
    ['email_client', 'os', 'device_type'],
    oneOf('group_by', ['email_client', 'os', 'device_type']),
  )
  group_by?: string;
  @IsOptional()
  @IsIn(EMAIL_ENGAGEMENT_SORT_METRICS, oneOf('sort', EMAIL_ENGAGEMENT_SORT_METRICS))
  sort?: string;
}

export class EmailStatsBounceCodesQuery extends EmailLimitQuery {
  @IsOptional()
  @IsIn(EMAIL_BOUNCE_CODE_SORT_METRICS, oneOf('sort', EMAIL_BOUNCE_CODE_SORT_METRICS))
  sort?: string;
}

export class EmailStatsComplaintTypesQuery extends EmailLimitQuery {
  @IsOptional() @IsIn(['complained'], oneOf('sort', ['complained'])) sort?: string;
}
