import { WHATSAPP_MESSAGE_STATUSES } from '@switchboard/contracts';
import {
  ArrayMaxSize,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import {
  IsTimestamp,
  RepeatedQuery,
  TAG_FILTER,
  Timestamp,
} from '../../pipeline/http/list-filters';
import { PageQuery } from '../../pipeline/http/list-query.dto';

/**
 * Messages newest first with keyset cursors (kept 30 days: `created_after` is raised to that
 * bound). `status` repeats to match any; `tag` repeats and every tag given must match.
 */
export class ListWhatsAppMessagesQuery extends PageQuery {
  @IsOptional() @Timestamp() @IsString() @IsTimestamp() created_after?: string;
  @IsOptional() @Timestamp() @IsString() @IsTimestamp() created_before?: string;
  @IsOptional()
  @RepeatedQuery()
  @IsIn(WHATSAPP_MESSAGE_STATUSES, {
    each: true,
    message: `status must be one of ${WHATSAPP_MESSAGE_STATUSES.join(', ')}`,
  })
  @ArrayMaxSize(WHATSAPP_MESSAGE_STATUSES.length)
  status?: string[];
  @IsOptional()
  @IsIn(['outbound', 'inbound'], { message: 'direction must be one of outbound, inbound' })
  direction?: 'outbound' | 'inbound';
  /** An E.164 number or a business-scoped user id. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(128) to?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(128) from?: string;
  /** Deprecated by the SDK in favour of `to` and `from`. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(32) phone_number?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(128) bsuid?: string;
  /** An open enum (authentication, marketing, utility, ...). */
  @IsOptional()
  @IsString()
  @Matches(/^[a-z_]{1,32}$/, { message: 'category must be a template category such as utility' })
  category?: string;
  @IsOptional()
  @RepeatedQuery()
  @IsString({ each: true })
  @Matches(TAG_FILTER, {
    each: true,
    message:
      'tag must be name or name:value (letters, digits, _ and -; name up to 32, value up to 64)',
  })
  @ArrayMaxSize(20, { message: 'at most 20 tag filters' })
  tag?: string[];
}

/** A message's timeline, optionally of one event type (open: any `whatsapp.` type). */
export class ListWhatsAppEventsQuery {
  @IsOptional()
  @IsString()
  @Matches(/^whatsapp\.[a-z_]{1,32}$/, {
    message: 'type must be a WhatsApp event type, such as whatsapp.delivered',
  })
  type?: string;
}
