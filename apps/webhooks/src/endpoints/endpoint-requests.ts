import { parseTimestamp, WEBHOOK_EVENT_TYPES } from '@switchboard/contracts';
import type {
  CreateWebhookEndpointRequest,
  ErrorDetail,
  ListWebhookAttemptsRequest,
  ReplayWebhookEventsRequest,
  TestWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
} from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';

/*
 * The rules of an endpoint request that the gateway's shapes cannot say: an absolute http(s) URL,
 * event types of the catalog (a detail per bad item, `events[3]`), ISO 8601 instants. Each checks
 * one request and answers it normalised (events deduplicated, instants in UTC) or throws one 422
 * (E01001) naming every field. https only and public addresses depend on the service's settings
 * and are checked after these (EndpointsService.checkUrl).
 */

const CATALOG_MESSAGE = 'must be an event type of the catalog';

/** `POST /v1/webhooks`: the url's shape, the events in the catalog, deduplicated in order. */
export function checkedCreate(input: CreateWebhookEndpointRequest): CreateWebhookEndpointRequest {
  const details: ErrorDetail[] = [];
  checkUrlShape(input.url, details);
  const events = catalogEvents(input.events, details);
  refuseAny(details);
  return { ...input, events };
}

/** `PATCH /v1/webhooks/{webhook_id}`: the create rules on the fields sent. */
export function checkedUpdate(input: UpdateWebhookEndpointRequest): UpdateWebhookEndpointRequest {
  const details: ErrorDetail[] = [];
  if (input.url !== undefined) checkUrlShape(input.url, details);
  const events = input.events && catalogEvents(input.events, details);
  refuseAny(details);
  return events ? { ...input, events } : input;
}

/** `POST /v1/webhooks/{webhook_id}/test`: an `event_type` sent must be in the catalog. */
export function checkedTest(input: TestWebhookEndpointRequest): TestWebhookEndpointRequest {
  if (input.event_type !== undefined && !isCatalogType(input.event_type))
    throw AppError.validation([{ param: 'event_type', message: CATALOG_MESSAGE }]);
  return input;
}

/** `GET /v1/webhooks/{webhook_id}/attempts`: the bounds as ISO 8601 instants in UTC. */
export function checkedAttempts(input: ListWebhookAttemptsRequest): ListWebhookAttemptsRequest {
  const details: ErrorDetail[] = [];
  const before = instant('before', input.before, details);
  const after = instant('after', input.after, details);
  refuseAny(details);
  return { ...input, before: before?.toISOString(), after: after?.toISOString() };
}

/** `POST /v1/webhooks/{webhook_id}/replay`: ISO 8601 instants, `since` before `until`. */
export function checkedReplay(input: ReplayWebhookEventsRequest): ReplayWebhookEventsRequest {
  const details: ErrorDetail[] = [];
  const since = instant('since', input.since, details);
  const until = instant('until', input.until, details);
  if (since && until && since.getTime() >= until.getTime())
    details.push({ param: 'since', message: 'must be before until' });
  refuseAny(details);
  return { ...input, since: since?.toISOString(), until: until?.toISOString() };
}

function isCatalogType(type: string): boolean {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** An absolute http(s) URL; https only and public addresses are checked with the settings. */
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
  value: string | undefined,
  details: ErrorDetail[],
): Date | undefined {
  if (value === undefined) return undefined;
  const parsed = parseTimestamp(value);
  if (!parsed) details.push({ param, message: 'must be an ISO 8601 date-time with a time zone' });
  return parsed;
}

function refuseAny(details: ErrorDetail[]): void {
  if (details.length) throw AppError.validation(details);
}
