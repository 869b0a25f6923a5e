import { NUMBER_CAPABILITIES, NUMBER_KINDS, NUMBER_TYPES } from '@switchboard/contracts';
import type { NumberKind } from '@switchboard/contracts';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { PageQuery, QueryBoolean } from '../../pipeline/http/list-query.dto';

export class StockNumberDto {
  /** E.164; a short code's digits (with `country_code`). */
  @IsString() @MinLength(3) @MaxLength(16) number: string;
  @IsIn(NUMBER_TYPES, { message: `number_type must be one of ${NUMBER_TYPES.join(', ')}` })
  number_type: string;
  @IsArray()
  @ArrayMinSize(1, { message: 'capabilities must name at least one of sms, mms, voice' })
  @ArrayMaxSize(NUMBER_CAPABILITIES.length)
  @IsIn(NUMBER_CAPABILITIES, {
    each: true,
    message: `capabilities must be among ${NUMBER_CAPABILITIES.join(', ')}`,
  })
  capabilities: string[];
  @IsOptional()
  @IsIn(NUMBER_KINDS, { message: 'kind must be dedicated or shared' })
  kind?: NumberKind;
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country_code must be an ISO 3166-1 alpha-2 code' })
  country_code?: string;
  /** A shared number's workspace. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64) workspace_id?: string;
}

export class ListStockQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country_code must be an ISO 3166-1 alpha-2 code' })
  country_code?: string;
  /** `true`: on sale only; `false`: held only. */
  @IsOptional() @QueryBoolean() @IsBoolean() available?: boolean;
}

/** Which country's number to unstock: needed for a short code stocked in several. */
export class UnstockNumberQuery {
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country_code must be an ISO 3166-1 alpha-2 code' })
  country_code?: string;
}

export class RegisterSmsSenderDto {
  /** The rules (1-11 letters, digits, spaces...) are the service's. */
  @IsString() @MinLength(1) @MaxLength(64) sender: string;
  @IsOptional() @IsArray() @ArrayMaxSize(8) @IsString({ each: true }) categories?: string[];
}

export class ListSmsSendersQuery extends PageQuery {}
