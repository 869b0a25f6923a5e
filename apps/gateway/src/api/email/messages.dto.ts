import type { EmailCategory, EmailMessageStatus } from '@switchboard/contracts';
import { isEmail } from '@switchboard/contracts';
import { Transform } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import type { ValidationOptions } from 'class-validator';
import {
  IsTimestamp,
  RepeatedQuery,
  TAG_FILTER,
  Timestamp,
} from '../../pipeline/http/list-filters';
import { PageQuery } from '../../pipeline/http/list-query.dto';

const EMAIL_MESSAGE_STATUSES = [
  'scheduled',
  'accepted',
  'processed',
  'deferred',
  'delivered',
  'partial_failure',
  'bounced',
  'complained',
  'rejected',
  'canceled',
] as const satisfies readonly EmailMessageStatus[];

const EMAIL_CATEGORIES = ['marketing', 'transactional'] as const satisfies readonly EmailCategory[];

/** The event types of a message's timeline (the SDK's `EmailEventType`). */
export const EMAIL_EVENT_TYPES = [
  'email.accepted',
  'email.scheduled',
  'email.processed',
  'email.deferred',
  'email.delivered',
  'email.bounced',
  'email.out_of_band_bounce',
  'email.complained',
  'email.rejected',
  'email.canceled',
  'email.opened',
  'email.clicked',
  'email.unsubscribed',
  'email.list_unsubscribed',
] as const;

/** Tag filters per list request (each must match: they combine with AND). */
const MAX_TAG_FILTERS = 10;

/*
 * Send and batch bodies: these classes only name the accepted fields, so the pipeline refuses
 * unknown ones by name and the OpenAPI document lists them. Their values (addresses in three
 * forms, headers, attachments, limits) are checked and normalised by `normaliseSendRequest`,
 * which reports every problem of a request at once; see send-request.normaliser.ts.
 */

export class SendEmailMessageDto {
  /** `jane@acme.com`, `Jane Doe <jane@acme.com>` or `{email, name}`. */
  @Allow() from: unknown;
  /** One to 50 addresses (to, cc and bcc together). */
  @Allow() to: unknown;
  @IsOptional() cc?: unknown;
  @IsOptional() bcc?: unknown;
  @IsOptional() reply_to?: unknown;
  @IsOptional() subject?: unknown;
  @IsOptional() html?: unknown;
  @IsOptional() text?: unknown;
  @IsOptional() category?: unknown;
  @IsOptional() tags?: unknown;
  @IsOptional() metadata?: unknown;
  @IsOptional() parameters?: unknown;
  @IsOptional() headers?: unknown;
  @IsOptional() attachments?: unknown;
  @IsOptional() template?: unknown;
  @IsOptional() track_opens?: unknown;
  @IsOptional() track_clicks?: unknown;
  @IsOptional() ip_pool_id?: unknown;
  @IsOptional() scheduled_at?: unknown;
}

export class SendEmailBatchDto {
  /** 1 to 100 send requests, each as `POST /v1/email/messages` takes it. */
  @Allow() messages: unknown;
}

/** Strings trimmed and lowercased before validation; anything else stays and fails it. */
const TrimmedLowercase = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  );

/** An email address as the send path accepts it (named like class-validator's for the OpenAPI format). */
const IsEmailAddress = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isEmail',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isEmail(value),
        defaultMessage: (args) => `${args?.property ?? 'value'} must be an email address`,
      },
    },
    options,
  );

/**
 * Messages newest first with keyset cursors (a data list: no `include_total`, `sort` or
 * `order`). `created_after` is inclusive and `created_before` exclusive; `to` and `from` are
 * lowercased and matched exactly; `tag` may be repeated and every tag given must match.
 */
export class ListEmailMessagesQuery extends PageQuery {
  @IsOptional() @Timestamp() @IsString() @IsTimestamp() created_after?: string;
  @IsOptional() @Timestamp() @IsString() @IsTimestamp() created_before?: string;
  @IsOptional()
  @IsIn(EMAIL_MESSAGE_STATUSES, {
    message: `status must be one of ${EMAIL_MESSAGE_STATUSES.join(', ')}`,
  })
  status?: EmailMessageStatus;
  /** `name` or `name:value`; repeat the parameter to require several tags. */
  @IsOptional()
  @RepeatedQuery()
  @IsString({ each: true })
  @Matches(TAG_FILTER, {
    each: true,
    message:
      'tag must be name or name:value (letters, digits, _ and -; name up to 32, value up to 64)',
  })
  @ArrayMaxSize(MAX_TAG_FILTERS, { message: `at most ${MAX_TAG_FILTERS} tag filters` })
  tag?: string[];
  @IsOptional()
  @IsIn(EMAIL_CATEGORIES, { message: `category must be one of ${EMAIL_CATEGORIES.join(', ')}` })
  category?: EmailCategory;
  @IsOptional() @TrimmedLowercase() @IsString() @MaxLength(254) @IsEmailAddress() to?: string;
  @IsOptional() @TrimmedLowercase() @IsString() @MaxLength(254) @IsEmailAddress() from?: string;
}

/** A message's recipients, with cursors. */
export class ListEmailRecipientsQuery extends PageQuery {}

/** A message's event timeline, optionally of one event type. */
export class ListEmailEventsQuery extends PageQuery {
  @IsOptional()
  @IsIn(EMAIL_EVENT_TYPES, { message: `type must be one of ${EMAIL_EVENT_TYPES.join(', ')}` })
  type?: (typeof EMAIL_EVENT_TYPES)[number];
}
