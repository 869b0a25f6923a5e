import { NUMBER_ORDER_STATUSES } from '@switchboard/contracts';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { RepeatedQuery } from '../../pipeline/http/list-filters';
import { PageQuery } from '../../pipeline/http/list-query.dto';

const COUNTRY = /^[A-Za-z]{2}$/;
const COUNTRY_MESSAGE = 'country_code must be an ISO 3166-1 alpha-2 code such as GB';

/** Filters both number lists share; the digits' limits and the country are the service's call. */
class NumberFiltersQuery extends PageQuery {
  @IsOptional() @IsString() @MaxLength(40) number_type?: string;
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,15}$/, { message: 'prefix must be digits only (at most 15)' })
  prefix?: string;
  /** Repeat the parameter to require several: every one must match. */
  @IsOptional()
  @RepeatedQuery()
  @IsString({ each: true })
  @Matches(/^[a-z_]{1,32}$/, { each: true, message: 'capabilities must be names such as sms' })
  capabilities?: string[];
}

/** The workspace's numbers, newest allocation first. */
export class ListNumbersQuery extends NumberFiltersQuery {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(40) number?: string;
  @IsOptional() @IsString() @Matches(COUNTRY, { message: COUNTRY_MESSAGE }) country_code?: string;
}

/** Stock on sale in one country. */
export class ListAvailableNumbersQuery extends NumberFiltersQuery {
  @IsString() @Matches(COUNTRY, { message: COUNTRY_MESSAGE }) country_code: string;
}

export class CreateNumbersOrderDto {
  @IsString() @MinLength(1) @MaxLength(40) number: string;
  /** Ours beside the SDK's body: which country's, for a short code on sale in several. */
  @IsOptional()
  @IsString()
  @Matches(COUNTRY, { message: COUNTRY_MESSAGE })
  country_code?: string;
}

/** Which country's, for a short code on sale in several. */
export class AvailableNumberQuery {
  @IsOptional()
  @IsString()
  @Matches(COUNTRY, { message: COUNTRY_MESSAGE })
  country_code?: string;
}

export class ListNumbersOrdersQuery extends PageQuery {
  @IsOptional()
  @IsIn(NUMBER_ORDER_STATUSES, {
    message: `status must be one of ${NUMBER_ORDER_STATUSES.join(', ')}`,
  })
  status?: string;
}
