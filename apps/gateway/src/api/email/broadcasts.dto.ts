import { EMAIL_BROADCAST_STATUSES } from '@switchboard/contracts';
import type { EmailBroadcastStatus } from '@switchboard/contracts';
import { Transform } from 'class-transformer';
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
import { EMAIL_EVENT_TYPES } from './messages.dto';

/*
 * Create and update bodies: these classes name the accepted fields, so the pipeline refuses
 * unknown ones by name (422 with details) and the OpenAPI document lists them. Their values
 * (addresses in three forms, headers, tags, the schedule) are the email service's to check; it
 * answers every problem in one 422.
 */

export class CreateEmailBroadcastDto {
  /** `jane@acme.com`, `Jane <jane@acme.com>` or `{email, name}`, on a verified domain. */
  @IsOptional() from?: unknown;
  @IsOptional() audience_id?: unknown;
  /** `{id}`: the template whose published version is sent. */
  @IsOptional() template?: unknown;
  @IsOptional() reply_to?: unknown;
  /** Up to 25; List-Unsubscribe and List-Unsubscribe-Post are dropped. */
  @IsOptional() headers?: unknown;
  @IsOptional() tags?: unknown;
  @IsOptional() metadata?: unknown;
  @IsOptional() track_opens?: unknown;
  @IsOptional() track_clicks?: unknown;
  @IsOptional() ip_pool_id?: unknown;
  @IsOptional() category?: unknown;
  /** true: send now, or at `scheduled_at`; false (default): a draft. */
  @IsOptional() send?: unknown;
  /** 30 seconds to 365 days ahead; requires `send: true`. */
  @IsOptional() scheduled_at?: unknown;
}

export class UpdateEmailBroadcastDto {
  @IsOptional() from?: unknown;
  @IsOptional() audience_id?: unknown;
  /** `{id}`, or null to take the template off. */
  @IsOptional() template?: unknown;
  /** null clears. */
  @IsOptional() reply_to?: unknown;
  /** Replaces the stored headers. */
  @IsOptional() headers?: unknown;
  /** Replaces the stored tags. */
  @IsOptional() tags?: unknown;
  /** Replaces the stored metadata. */
  @IsOptional() metadata?: unknown;
  @IsOptional() track_opens?: unknown;
  @IsOptional() track_clicks?: unknown;
  /** null falls back to the organization default. */
  @IsOptional() ip_pool_id?: unknown;
  @IsOptional() category?: unknown;
}

export class SendEmailBroadcastDto {
  /** 30 seconds to 365 days ahead; omit to send now. */
  @IsOptional() @IsString() @IsTimestamp() scheduled_at?: string;
}

/** Broadcasts newest first: status (repeatable), audience, tag, q, and a creation window. */
export class ListEmailBroadcastsQuery extends PageQuery {
  @IsOptional()
  @RepeatedQuery()
  @IsIn(EMAIL_BROADCAST_STATUSES, {
    each: true,
    message: `status must be one of ${EMAIL_BROADCAST_STATUSES.join(', ')}`,
  })
  @ArrayMaxSize(EMAIL_BROADCAST_STATUSES.length)
  status?: EmailBroadcastStatus[];
  @IsOptional()
  @IsString()
  @Matches(/^adn_[0-9a-z]{1,64}$/, { message: 'audience_id must be an audience id' })
  audience_id?: string;
  /** `name` or `name:value`. */
  @IsOptional()
  @IsString()
  @Matches(TAG_FILTER, { message: 'tag must be name or name:value' })
  tag?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(100) q?: string;
  @IsOptional() @Timestamp() @IsString() @IsTimestamp() created_after?: string;
  @IsOptional() @Timestamp() @IsString() @IsTimestamp() created_before?: string;
}

/** A broadcast's recipients; `to` one address (lowercased). */
export class ListEmailBroadcastRecipientsQuery extends PageQuery {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  )
  @IsString()
  // An empty address would match every recipient, not at most one.
  @MinLength(1, { message: 'to must be an email address' })
  @MaxLength(254)
  to?: string;
}

/** A broadcast's event timeline, optionally of one event type. */
export class ListEmailBroadcastEventsQuery extends PageQuery {
  @IsOptional()
  @IsIn(EMAIL_EVENT_TYPES, { message: `type must be one of ${EMAIL_EVENT_TYPES.join(', ')}` })
  type?: (typeof EMAIL_EVENT_TYPES)[number];
}
