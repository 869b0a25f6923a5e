import type { WebhookAttempt, WebhookEndpoint } from '@switchboard/contracts';
import type { AttemptRow, EndpointRow } from './endpoints.repository';

export function toEndpointDto(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    ...(row.description === null ? {} : { description: row.description }),
    events: row.events,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toAttemptDto(row: AttemptRow): WebhookAttempt {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    url: row.url,
    response_status_code: row.response_status_code,
    ...(row.response_body ? { response_body: row.response_body } : {}),
    response_duration_ms: row.response_duration_ms,
    attempted_at: row.attempted_at.toISOString(),
    ...(row.error ? { error: row.error } : {}),
  };
}
