import { SMS_SUPPRESSION_REASONS } from '@switchboard/contracts';
import type { SmsSuppressionReason } from '@switchboard/contracts';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PageQuery } from '../../pipeline/http/list-query.dto';

/** Both ends: a suppression covers one sender and one subscriber. */
export class AddSmsSuppressionDto {
  @IsString() @MinLength(1) @MaxLength(32) destination: string;
  @IsString() @MinLength(1) @MaxLength(32) originator: string;
}

/** In-force episodes, most recent opt-out first, keyset cursors. */
export class ListSmsSuppressionsQuery extends PageQuery {
  /** Exact E.164; prefixes are not matched. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(32) destination?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(32) originator?: string;
  @IsOptional()
  @IsIn(SMS_SUPPRESSION_REASONS, {
    message: `reason must be one of ${SMS_SUPPRESSION_REASONS.join(', ')}`,
  })
  reason?: SmsSuppressionReason;
}
