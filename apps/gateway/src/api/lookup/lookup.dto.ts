import { LOOKUP_LIMITS, LOOKUP_PROPERTIES } from '@switchboard/contracts';
import type { LookupPropertyName } from '@switchboard/contracts';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';

/** `POST /v1/lookup/phone-number` (SDK: LookupPhoneNumberParams). */
export class LookupPhoneNumberDto {
  @IsString() @MinLength(1) @MaxLength(LOOKUP_LIMITS.phoneNumberLength) phone_number: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LOOKUP_PROPERTIES.length * 2)
  @IsIn(LOOKUP_PROPERTIES, {
    each: true,
    message: `each value in type must be one of ${LOOKUP_PROPERTIES.join(', ')}`,
  })
  type?: LookupPropertyName[];
}

/** `POST /v1/lookup/email` (SDK: LookupEmailParams). */
export class LookupEmailDto {
  @IsString() @MinLength(1) @MaxLength(LOOKUP_LIMITS.emailLength) email: string;
}
