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
import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS } from '@switchboard/contracts';
import type { ErrorDetail } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { ManagementPageQuery } from '../../pipeline/http/list-query.dto';
import { parseTimestamp } from '../email/timestamp';

/*
 * Shapes here; the catalog check names the bad item (`events[3]`), and the webhooks service
 * applies the rules that depend on its settings (https only, public addresses).
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

/** An absolute http(s) URL (422 naming `url` otherwise). */
export function checkUrlShape(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
    throw AppError.validation([{ param: 'url', message: 'must be an absolute https URL' }]);
}

/** The event types, each in the catalog (422 naming the item), duplicates dropped in order. */
export function catalogEvents(events: string[], param = 'events'): string[] {
  const details: ErrorDetail[] = [];
  events.forEach((type, index) => {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))
      details.push({
        param: `${param}[${index}]`,
        message: 'must be an event type of the catalog',
      });
  });
  if (details.length) throw AppError.validation(details);
  return [...new Set(events)];
}

/** ISO 8601 instants of a query or body, as ISO strings (422 naming the field otherwise). */
export function instants<K extends string>(
  values: Partial<Record<K, string>>,
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  const details: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(values) as Array<[K, string | undefined]>) {
    if (value === undefined) continue;
    const instant = parseTimestamp(value);
    if (instant) out[name] = instant.toISOString();
    else details.push({ param: name, message: 'must be an ISO 8601 date-time with a time zone' });
  }
  if (details.length) throw AppError.validation(details);
  return out;
}
