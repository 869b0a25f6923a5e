import { SMS_CATEGORIES, SMS_ERROR_CODES, SMS_MESSAGE_STATUSES } from '@switchboard/contracts';
import type { SmsCategory, SmsDirection } from '@switchboard/contracts';
import { Transform } from 'class-transformer';
import {
  Allow,
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

/*
 * Send and batch bodies: these classes only name the accepted fields, so the pipeline refuses
 * unknown ones by name and the OpenAPI document lists them. Their values (the recipient, the
 * sender, the body's segments, tags, the preview fields) are the sms-whatsapp service's rules,
 * which answer every problem of a request in one 422.
 */

export class SendSmsMessageDto {
  /** The recipient, E.164. */
  @Allow() to: unknown;
  /** A number the workspace holds, or its registered sender ID; required with `text`. */
  @IsOptional() from?: unknown;
  @IsOptional() text?: unknown;
  @IsOptional() category?: unknown;
  @IsOptional() template?: unknown;
  @IsOptional() tags?: unknown;
  @IsOptional() metadata?: unknown;
  @IsOptional() options?: unknown;
  // Preview features: accepted by name, then refused by the service with SMSUnsupportedFeature.
  @IsOptional() validity_period?: unknown;
  @IsOptional() media_urls?: unknown;
  @IsOptional() messaging_profile_id?: unknown;
  @IsOptional() scheduled_at?: unknown;
  @IsOptional() broadcast_id?: unknown;
  @IsOptional() campaign_id?: unknown;
  @IsOptional() audience_id?: unknown;
  @IsOptional() contact_id?: unknown;
  @IsOptional() topic_id?: unknown;
  @IsOptional() personalization?: unknown;
}

export class SendSmsBatchDto {
  /** 1 to 100 send requests, each as `POST /v1/sms/messages` takes it. */
  @Allow() messages: unknown;
}

/** A repeated query parameter (`status=a&status=b`), also given comma-separated, as a list. */
const QueryList = () =>
  Transform(({ value }: { value: unknown }) => {
    const values = typeof value === 'string' ? [value] : value;
    return Array.isArray(values)
      ? values.flatMap((item: unknown) => (typeof item === 'string' ? item.split(',') : [item]))
      : values;
  });

/**
 * Messages newest first with keyset cursors. `created_after` is inclusive (raised to the 30-day
 * retention bound), `created_before` exclusive; `status` and `error_code` repeat to match any,
 * `tag` repeats and every tag given must match.
 */
export class ListSmsMessagesQuery extends PageQuery {
  @IsOptional() @Timestamp() @IsString() @IsTimestamp() created_after?: string;
  @IsOptional() @Timestamp() @IsString() @IsTimestamp() created_before?: string;
  @IsOptional()
  @IsIn(['outbound', 'inbound'], { message: 'direction must be one of outbound, inbound' })
  direction?: SmsDirection;
  @IsOptional()
  @QueryList()
  @IsIn(SMS_MESSAGE_STATUSES, {
    each: true,
    message: `status must be one of ${SMS_MESSAGE_STATUSES.join(', ')}`,
  })
  @ArrayMaxSize(SMS_MESSAGE_STATUSES.length)
  status?: string[];
  @IsOptional()
  @QueryList()
  @IsString({ each: true })
  @Matches(/^[a-z_]{1,64}$/, {
    each: true,
    message: `error_code must be a failure reason such as ${SMS_ERROR_CODES.slice(0, 3).join(', ')}`,
  })
  @ArrayMaxSize(20)
  error_code?: string[];
  @IsOptional()
  @IsIn(SMS_CATEGORIES, { message: `category must be one of ${SMS_CATEGORIES.join(', ')}` })
  category?: SmsCategory;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(32) to?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(32) from?: string;
  /** `name` or `name:value`; repeat the parameter to require several tags. */
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

/** A message's timeline, optionally of one event type (open: any `sms.` type). */
export class ListSmsEventsQuery {
  @IsOptional()
  @IsString()
  @Matches(/^sms\.[a-z_]{1,32}$/, {
    message: 'type must be an SMS event type, such as sms.delivered',
  })
  type?: string;
}
