import type { SortedPageRequest } from '../pagination';

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
  Publish: 'realtime.event.publish',
  PublishBatch: 'realtime.event.publish_batch',
  ListChannels: 'realtime.channel.list',
  GetChannel: 'realtime.channel.get',
  ListMembers: 'realtime.channel.members',
  SendMemberEvent: 'realtime.member.event',
  DisconnectMember: 'realtime.member.disconnect',
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

export type ListRealtimeAppsRequest = SortedPageRequest<'created_at' | 'name'>;

/*
 * Realtime data plane (spec "Realtime events", contract sections 4 and 5). Every request carries
 * the app key and secret of the `X-Realtime-Key` / `X-Realtime-Secret` headers; the realtime
 * service checks them against the app named in the path.
 */

export type RealtimeChannelInclude = 'member_count' | 'connection_count';

export interface RealtimeCredentials {
  key: string;
  secret: string;
}

export interface RealtimeDataPlaneRequest {
  realtime_app_id: string;
  credentials: RealtimeCredentials;
}

export interface PublishRealtimeEventRequest extends RealtimeDataPlaneRequest {
  event: string;
  channels: string[];
  data?: unknown;
  exclude_connection_id?: string;
  include?: RealtimeChannelInclude[];
}

export interface PublishRealtimeBatchRequest extends RealtimeDataPlaneRequest {
  events: Array<{
    event: string;
    channel: string;
    data?: unknown;
    exclude_connection_id?: string;
    include?: RealtimeChannelInclude[];
  }>;
}

export interface RealtimeChannelCounts {
  member_count?: number;
  connection_count?: number;
}

export interface RealtimeChannelListItem extends RealtimeChannelCounts {
  name: string;
}

export interface ListRealtimeChannelsRequest extends RealtimeDataPlaneRequest {
  prefix?: string;
  include?: RealtimeChannelInclude[];
}

export interface GetRealtimeChannelRequest extends RealtimeDataPlaneRequest {
  channel_name: string;
  include?: RealtimeChannelInclude[];
}

export interface RealtimeMemberRequest extends RealtimeDataPlaneRequest {
  member_id: string;
}

export interface SendRealtimeMemberEventRequest extends RealtimeMemberRequest {
  event: string;
  data?: unknown;
}
