import type {
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointStatus,
} from '@switchboard/contracts';

export interface EndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  events: string[];
  status: WebhookEndpointStatus;
  status_reason: string | null;
  consecutive_failures: number;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const ENDPOINT_COLUMNS =
  'id, workspace_id, url, description, events, status, status_reason, consecutive_failures, failing_since, created_at, updated_at';

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

export interface AttemptRow {
  id: string;
  event_id: string | null;
  event_type: string;
  status: WebhookAttempt['status'];
  url: string;
  response_status_code: number | null;
  response_body: string | null;
  response_duration_ms: number;
  attempted_at: Date;
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
  };
}
