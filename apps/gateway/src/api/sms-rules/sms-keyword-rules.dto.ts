import {
  SMS_KEYWORD_LIMITS,
  SMS_KEYWORD_OPERATIONS,
  SMS_KEYWORD_RULE_SCOPES,
} from '@switchboard/contracts';
import type { SmsKeywordOperation, SmsKeywordRuleScope } from '@switchboard/contracts';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';

const operationMessage = `operation must be one of ${SMS_KEYWORD_OPERATIONS.join(', ')}`;
const COUNTRY = /^[A-Za-z]{2}$/;
const countryMessage = (field: string) => `${field} must be an ISO 3166-1 alpha-2 code, such as US`;

/** `null` passes `@IsOptional`: the service tells an absent field from a null one. */
export class CreateSmsKeywordRuleDto {
  @IsIn(SMS_KEYWORD_OPERATIONS, { message: operationMessage }) operation: SmsKeywordOperation;
  @IsOptional()
  @IsString()
  @Matches(COUNTRY, { message: countryMessage('country') })
  country?: string | null;
  @IsOptional() @IsString() @MaxLength(35) language?: string | null;
  @IsOptional() @IsString() @MaxLength(32) number?: string | null;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SMS_KEYWORD_LIMITS.keywordsPerRule)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  keywords?: string[];
  @IsOptional() @IsString() @MaxLength(1600) reply?: string | null;
  @IsOptional() @IsBoolean() confirmed_self_managed?: boolean;
}

export class UpdateSmsKeywordRuleDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SMS_KEYWORD_LIMITS.keywordsPerRule)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  keywords?: string[];
  @IsOptional() @IsString() @MaxLength(1600) reply?: string | null;
  @IsOptional() @IsBoolean() confirmed_self_managed?: boolean;
}

export class ListSmsKeywordRulesQuery {
  @IsOptional() @Matches(COUNTRY, { message: countryMessage('country') }) country?: string;
  @IsOptional() @IsString() @MaxLength(32) number?: string;
  @IsOptional()
  @Matches(COUNTRY, { message: countryMessage('from_country') })
  from_country?: string;
  @IsOptional()
  @IsIn(SMS_KEYWORD_OPERATIONS, { message: operationMessage })
  operation?: SmsKeywordOperation;
  @IsOptional()
  @IsIn(SMS_KEYWORD_RULE_SCOPES, { message: 'scope must be one of system, workspace' })
  scope?: SmsKeywordRuleScope;
}
