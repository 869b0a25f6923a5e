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
import { parseTimestamp, WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS } from '@switchboard/contracts';
import type {
  CreateWebhookEndpointRequest,
  ErrorDetail,
  ListWebhookAttemptsRequest,
  ListWebhookEndpointsRequest,
  ReplayWebhookEventsRequest,
  TestWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
} from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { ManagementPageQuery } from '../../pipeline/http/list-query.dto';

/*
 * Shapes here (class-validator, published in the OpenAPI document); the request builders below
 * check what the shapes cannot say (an absolute http(s) URL, the catalog naming the bad item as
 * `events[3]`, ISO 8601 instants). The webhooks service applies the rules that depend on its
 * settings (https only, public addresses).
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
 * The validated DTOs as the contract requests. Each collects every problem of its body or query
 * into one 422 (E01001) whose details name the field (`url`, `events[3]`, `event_type`, `since`).
 * `@IsOptional` lets `null` through as well as an absent field; both mean "not given" here, so a
 * request never carries a null the contract does not allow.
 */

/** `POST /v1/webhooks`: the url's shape checked, the events in the catalog and deduplicated. */
export function toCreateRequest(body: CreateWebhookDto): CreateWebhookEndpointRequest {
  const details: ErrorDetail[] = [];
  checkUrlShape(body.url, details);
  const events = catalogEvents(body.events, details);
  refuseAny(details);
  return { url: body.url, events, ...given({ description: body.description }) };
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

/** `PATCH /v1/webhooks/{webhook_id}`: only the fields sent, with the create rules. */
export function toUpdateRequest(
  webhookId: string,
  body: UpdateWebhookDto,
): UpdateWebhookEndpointRequest {
  const details: ErrorDetail[] = [];
  if (isGiven(body.url)) checkUrlShape(body.url, details);
  const events = isGiven(body.events) ? catalogEvents(body.events, details) : undefined;
  refuseAny(details);
  return {
    webhook_id: webhookId,
    ...given({ url: body.url, description: body.description, events, status: body.status }),
  };
}

/** `POST /v1/webhooks/{webhook_id}/test`: an `event_type` sent must be in the catalog. */
export function toTestRequest(webhookId: string, body: TestWebhookDto): TestWebhookEndpointRequest {
  if (isGiven(body.event_type) && !isCatalogType(body.event_type))
    throw AppError.validation([{ param: 'event_type', message: CATALOG_MESSAGE }]);
  return { webhook_id: webhookId, ...given({ event_type: body.event_type }) };
}

/** `GET /v1/webhooks/{webhook_id}/attempts`: the bounds as ISO 8601 instants in UTC. */
export function toAttemptsRequest(
  webhookId: string,
  query: ListAttemptsQuery,
): ListWebhookAttemptsRequest {
  const details: ErrorDetail[] = [];
  const before = instant('before', query.before, details);
  const after = instant('after', query.after, details);
  refuseAny(details);
  return {
    webhook_id: webhookId,
    limit: query.limit,
    ...given({ before: before?.toISOString(), after: after?.toISOString() }),
  };
}

/**
 * `POST /v1/webhooks/{webhook_id}/replay`: the range as ISO 8601 instants in UTC, `since` before
 * `until` when both are sent (the service applies the defaults and checks the result again).
 */
export function toReplayRequest(
  webhookId: string,
  body: ReplayWebhookDto,
): ReplayWebhookEventsRequest {
  const details: ErrorDetail[] = [];
  const since = instant('since', body.since, details);
  const until = instant('until', body.until, details);
  if (since && until && since.getTime() >= until.getTime())
    details.push({ param: 'since', message: 'must be before until' });
  refuseAny(details);
  return {
    webhook_id: webhookId,
    ...given({ since: since?.toISOString(), until: until?.toISOString() }),
  };
}

const CATALOG_MESSAGE = 'must be an event type of the catalog';

function isCatalogType(type: string): boolean {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** An absolute http(s) URL; https only and public addresses are the service's rules. */
function checkUrlShape(url: string, details: ErrorDetail[]): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
    details.push({ param: 'url', message: 'must be an absolute https URL' });
}

/** The event types, each in the catalog (a detail per bad item), duplicates dropped in order. */
function catalogEvents(events: string[], details: ErrorDetail[]): string[] {
  events.forEach((type, index) => {
    if (!isCatalogType(type)) details.push({ param: `events[${index}]`, message: CATALOG_MESSAGE });
  });
  return [...new Set(events)];
}

/** The instant of an ISO 8601 date-time with a time zone, or a detail naming the field. */
function instant(
  param: string,
  value: string | null | undefined,
  details: ErrorDetail[],
): Date | undefined {
  if (!isGiven(value)) return undefined;
  const parsed = parseTimestamp(value);
  if (!parsed) details.push({ param, message: 'must be an ISO 8601 date-time with a time zone' });
  return parsed;
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

function refuseAny(details: ErrorDetail[]): void {
  if (details.length) throw AppError.validation(details);
}
