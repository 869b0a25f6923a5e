/** Realtime control plane: apps, keys and regions (contract section 4). */
export const RealtimeSubjects = {
  ListRegions: 'realtime.region.list',
  CreateApp: 'realtime.app.create',
  ListApps: 'realtime.app.list',
  GetApp: 'realtime.app.get',
  UpdateApp: 'realtime.app.update',
  DeleteApp: 'realtime.app.delete',
  CreateKey: 'realtime.key.create',
  ListKeys: 'realtime.key.list',
  RevokeKey: 'realtime.key.revoke',
} as const;

export interface RealtimeRegion {
  id: string;
  name: string;
}

export interface RealtimeApp {
  id: string;
  app_id: string;
  name: string;
  region: string;
  status: 'active';
  connection_counting: boolean;
  tls_enforced: true;
  websocket_url: string;
  created_at: string;
  updated_at: string;
}

export interface RealtimeAppKey {
  id: string;
  app_id: string;
  created_at: string;
  revoked_at: string | null;
}

export interface RealtimeAppKeyWithSecret extends RealtimeAppKey {
  secret: string;
}

export interface CreateRealtimeAppRequest {
  name: string;
  region: string;
  connection_counting?: boolean;
}

export interface UpdateRealtimeAppRequest {
  app_id: string;
  name?: string;
  connection_counting?: boolean;
}

export interface ListRealtimeAppsRequest {
  name?: string;
  sort: 'created_at' | 'name';
  order?: 'asc' | 'desc';
  limit: number;
  starting_after?: string;
  ending_before?: string;
  include_total?: boolean;
}
