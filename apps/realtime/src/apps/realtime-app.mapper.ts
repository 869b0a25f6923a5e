import type { RealtimeApp, RealtimeAppKey } from '@switchboard/contracts';
import type { AppRow, KeyRow } from './realtime-apps.repository';

const iso = (value: Date | string): string =>
  (value instanceof Date ? value : new Date(value)).toISOString();

/** Where the official client connects: the gateway origin, `ws(s)://host/app` + `/{key}`. */
export function websocketUrl(publicOrigin: string | undefined): string {
  const origin = publicOrigin ?? 'http://127.0.0.1:8080';
  return `${origin.replace(/^http/, 'ws')}/app`;
}

export function toAppDto(row: AppRow, publicOrigin: string | undefined): RealtimeApp {
  return toAppDtoAt(row, websocketUrl(publicOrigin));
}

/** The apps of one page as DTOs: the WebSocket URL is the same for every one of them. */
export function toAppDtos(rows: AppRow[], publicOrigin: string | undefined): RealtimeApp[] {
  const url = websocketUrl(publicOrigin);
  return rows.map((row) => toAppDtoAt(row, url));
}

function toAppDtoAt(row: AppRow, websocketUrl: string): RealtimeApp {
  return {
    id: row.id,
    app_id: row.app_id,
    name: row.name,
    region: row.region,
    status: row.status,
    connection_counting: row.connection_counting,
    tls_enforced: true,
    websocket_url: websocketUrl,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toKeyDto(row: KeyRow): RealtimeAppKey {
  return {
    id: row.id,
    app_id: row.app_id,
    created_at: iso(row.created_at),
    revoked_at: row.revoked_at ? iso(row.revoked_at) : null,
  };
}
