import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { WEBHOOK_LIMITS } from '@switchboard/contracts';
import type {
  CreateWebhookEndpointRequest,
  ListWebhookAttemptsRequest,
  ListWebhookEndpointsRequest,
  ReplayWebhookEventsRequest,
  TestWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
} from '@switchboard/contracts';
import { ManagementPageQuery } from '../../pipeline/http/list-query.dto';

/*
 * Shapes here (class-validator, published in the OpenAPI document). What the shapes cannot say
 * (an absolute http(s) URL, the catalog naming the bad item as `events[3]`, ISO 8601 instants,
 * https only, public addresses) is the webhooks service's (endpoints/endpoint-requests.ts).
 */

export class CreateWebhookDto {
  @IsString() @MinLength(1) @MaxLength(WEBHOOK_LIMITS.urlLength) url: string;

  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one event type' })
  @ArrayMaxSize(WEBHOOK_LIMITS.eventsPerEndpoint, {
    message: `at most ${WEBHOOK_LIMITS.eventsPerEndpoint} event types`,
  })
  @IsString({ each: true })
  events: string[];

  @IsOptional() @IsString() @MaxLength(WEBHOOK_LIMITS.descriptionLength) description?: string;
}

/** Only the fields sent change; `events` replaces the set; `degraded` cannot be set. */
export class UpdateWebhookDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(WEBHOOK_LIMITS.urlLength) url?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one event type' })
  @ArrayMaxSize(WEBHOOK_LIMITS.eventsPerEndpoint, {
    message: `at most ${WEBHOOK_LIMITS.eventsPerEndpoint} event types`,
  })
  @IsString({ each: true })
  events?: string[];

  @IsOptional() @IsString() @MaxLength(WEBHOOK_LIMITS.descriptionLength) description?: string;

  @IsOptional()
  @IsIn(['active', 'paused'], { message: 'status must be active or paused' })
  status?: 'active' | 'paused';
}

export class TestWebhookDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(100) event_type?: string;
}

export class ReplayWebhookDto {
  @IsOptional() @IsString() @MaxLength(64) since?: string;
  @IsOptional() @IsString() @MaxLength(64) until?: string;
}

export class ListWebhooksQuery extends ManagementPageQuery {
  @IsOptional()
  @IsIn(['created_at', 'url'], { message: 'sort must be one of created_at, url' })
  sort: 'created_at' | 'url' = 'created_at';
}

export class ListAttemptsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(WEBHOOK_LIMITS.attemptsPerList)
  limit: number = 50;

  @IsOptional() @IsString() @MaxLength(64) before?: string;
  @IsOptional() @IsString() @MaxLength(64) after?: string;
}

/*
 * The validated DTOs as the contract requests: only the fields given (`@IsOptional` lets `null`
 * through as well as an absent field; both mean "not given" here, so a request never carries a
 * null the contract does not allow). The webhooks service applies the rules of their values.
 */

/** `POST /v1/webhooks`. */
export function toCreateRequest(body: CreateWebhookDto): CreateWebhookEndpointRequest {
  return { url: body.url, events: body.events, ...given({ description: body.description }) };
}

/** `GET /v1/webhooks`: newest first unless `order` says otherwise (the SDK's default). */
export function toListRequest(query: ListWebhooksQuery): ListWebhookEndpointsRequest {
  return {
    sort: query.sort,
    order: query.order ?? 'desc',
    limit: query.limit,
    ...given({
      starting_after: query.starting_after,
      ending_before: query.ending_before,
      include_total: query.include_total,
    }),
  };
}

/** `PATCH /v1/webhooks/{webhook_id}`: only the fields sent. */
export function toUpdateRequest(
  webhookId: string,
  body: UpdateWebhookDto,
): UpdateWebhookEndpointRequest {
  return {
    webhook_id: webhookId,
    ...given({
      url: body.url,
      description: body.description,
      events: body.events,
      status: body.status,
    }),
  };
}

/** `POST /v1/webhooks/{webhook_id}/test`. */
export function toTestRequest(webhookId: string, body: TestWebhookDto): TestWebhookEndpointRequest {
  return { webhook_id: webhookId, ...given({ event_type: body.event_type }) };
}

/** `GET /v1/webhooks/{webhook_id}/attempts`. */
export function toAttemptsRequest(
  webhookId: string,
  query: ListAttemptsQuery,
): ListWebhookAttemptsRequest {
  return {
    webhook_id: webhookId,
    limit: query.limit,
    ...given({ before: query.before, after: query.after }),
  };
}

/** `POST /v1/webhooks/{webhook_id}/replay`. */
export function toReplayRequest(
  webhookId: string,
  body: ReplayWebhookDto,
): ReplayWebhookEventsRequest {
  return { webhook_id: webhookId, ...given({ since: body.since, until: body.until }) };
}

function isGiven<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

/** The fields that were given, without those absent or null. */
function given<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => isGiven(value))) as {
    [K in keyof T]?: NonNullable<T[K]>;
  };
}
