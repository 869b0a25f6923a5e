import type { Page } from '../pagination';
import type { IdRequest, NoContent, Rpc } from '../rpc';
import type { RealtimeSubjects } from './realtime';
import type {
  CreateRealtimeAppRequest,
  GetRealtimeChannelRequest,
  ListRealtimeAppsRequest,
  ListRealtimeChannelsRequest,
  PublishRealtimeBatchRequest,
  PublishRealtimeEventRequest,
  RealtimeApp,
  RealtimeAppKey,
  RealtimeAppKeyWithSecret,
  RealtimeChannelCounts,
  RealtimeChannelListItem,
  RealtimeMemberRequest,
  RealtimeRegion,
  SendRealtimeMemberEventRequest,
  UpdateRealtimeAppRequest,
} from './realtime';

export type RealtimeAppIdRequest = IdRequest<'app_id'>;
export type ListRealtimeKeysRequest = RealtimeAppIdRequest & { include_revoked: boolean };
export type RevokeRealtimeKeyRequest = IdRequest<'app_id' | 'key_id'>;

/** A publish answers the counts asked for with `include`, one item per channel, or nothing. */
export type RealtimePublishReply = { data?: RealtimeChannelListItem[] };
export type RealtimeBatchPublishReply = {
  data?: Array<RealtimeChannelCounts & { channel: string }>;
};

export interface RealtimeChannelInfo extends RealtimeChannelCounts {
  occupied: boolean;
}

/** The realtime service's operations, by subject. */
export interface RealtimeRpc {
  [RealtimeSubjects.ListRegions]: Rpc<Record<string, never>, { data: RealtimeRegion[] }>;
  [RealtimeSubjects.CreateApp]: Rpc<
    CreateRealtimeAppRequest,
    { app: RealtimeApp; key: RealtimeAppKeyWithSecret }
  >;
  [RealtimeSubjects.ListApps]: Rpc<ListRealtimeAppsRequest, Page<RealtimeApp>>;
  [RealtimeSubjects.GetApp]: Rpc<RealtimeAppIdRequest, RealtimeApp>;
  [RealtimeSubjects.UpdateApp]: Rpc<UpdateRealtimeAppRequest, RealtimeApp>;
  [RealtimeSubjects.DeleteApp]: Rpc<RealtimeAppIdRequest, NoContent>;
  [RealtimeSubjects.CreateKey]: Rpc<RealtimeAppIdRequest, RealtimeAppKeyWithSecret>;
  [RealtimeSubjects.ListKeys]: Rpc<ListRealtimeKeysRequest, { data: RealtimeAppKey[] }>;
  [RealtimeSubjects.RevokeKey]: Rpc<RevokeRealtimeKeyRequest, RealtimeAppKey>;
  [RealtimeSubjects.Publish]: Rpc<PublishRealtimeEventRequest, RealtimePublishReply>;
  [RealtimeSubjects.PublishBatch]: Rpc<PublishRealtimeBatchRequest, RealtimeBatchPublishReply>;
  [RealtimeSubjects.ListChannels]: Rpc<
    ListRealtimeChannelsRequest,
    { data: RealtimeChannelListItem[] }
  >;
  [RealtimeSubjects.GetChannel]: Rpc<GetRealtimeChannelRequest, RealtimeChannelInfo>;
  [RealtimeSubjects.ListMembers]: Rpc<
    GetRealtimeChannelRequest,
    { members: Array<{ member_id: string }> }
  >;
  [RealtimeSubjects.SendMemberEvent]: Rpc<SendRealtimeMemberEventRequest, NoContent>;
  [RealtimeSubjects.DisconnectMember]: Rpc<RealtimeMemberRequest, NoContent>;
}
