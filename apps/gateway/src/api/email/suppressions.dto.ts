import { EMAIL_SUPPRESSION_REASONS, EMAIL_SUPPRESSION_SCOPE_TYPES } from '@switchboard/contracts';
import type { EmailSuppressionReason, EmailSuppressionScopeType } from '@switchboard/contracts';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PageQuery } from '../../pipeline/http/list-query.dto';

/** Strings are trimmed and lowercased before validation; anything else stays and fails it. */
const TrimmedLowercase = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  );

export class CreateSuppressionDto {
  @TrimmedLowercase()
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'email must be an email address' })
  email: string;
}

/** Newest first with keyset cursors; no `include_total`, `sort` or `order` (a data list). */
export class ListSuppressionsQuery extends PageQuery {
  /** Case-insensitive prefix of the address. */
  @IsOptional() @TrimmedLowercase() @IsString() @MinLength(1) @MaxLength(320) email?: string;
  @IsOptional()
  @IsIn(EMAIL_SUPPRESSION_REASONS, {
    message: `reason must be one of ${EMAIL_SUPPRESSION_REASONS.join(', ')}`,
  })
  reason?: EmailSuppressionReason;
  @IsOptional()
  @IsIn(EMAIL_SUPPRESSION_SCOPE_TYPES, {
    message: `scope_type must be one of ${EMAIL_SUPPRESSION_SCOPE_TYPES.join(', ')}`,
  })
  scope_type?: EmailSuppressionScopeType;
}
