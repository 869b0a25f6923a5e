/**
 * Email broadcasts (reference section 2; the SDK's `EmailBroadcast*` types are the shapes): one
 * email to a whole audience, prepared into one message per contact when it sends.
 */
import type {
  EmailBroadcast,
  EmailBroadcastClickedLinkList,
  EmailBroadcastCounts,
  EmailBroadcastSendQuota,
  EmailBroadcastStatus,
  EmailTemplateBroadcastSummary,
} from '@messagebird/sdk';

export type {
  EmailBroadcast,
  EmailBroadcastClickedLinkList,
  EmailBroadcastCounts,
  EmailBroadcastSendQuota,
  EmailBroadcastStatus,
  EmailTemplateBroadcastSummary,
};

export const EmailBroadcastSubjects = {
  Create: 'email.broadcast.create',
  List: 'email.broadcast.list',
  Get: 'email.broadcast.get',
  Update: 'email.broadcast.update',
  Delete: 'email.broadcast.delete',
  Send: 'email.broadcast.send',
  Cancel: 'email.broadcast.cancel',
  Counts: 'email.broadcast.counts',
  SendQuota: 'email.broadcast.send_quota',
  ListEvents: 'email.broadcast.events.list',
  ListRecipients: 'email.broadcast.recipients.list',
  ClickedLinks: 'email.broadcast.clicked_links.list',
  ListForTemplate: 'email.broadcast.template.list',
} as const;

export const EMAIL_BROADCAST_STATUSES = [
  'draft',
  'scheduled',
  'accepted',
  'sending',
  'sent',
  'canceling',
  'canceled',
  'failed',
] as const satisfies readonly EmailBroadcastStatus[];

export const BROADCAST_LIMITS = {
  replyTo: 25,
  headers: 25,
  headerValue: 998,
  tags: 20,
  metadataBytes: 2 * 1024,
  scheduleMinSeconds: 30,
  scheduleMaxDays: 365,
  /** Clicked links returned, most clicked first. */
  clickedLinks: 100,
} as const;

/** A create or update body as the gateway forwards it: shape-checked, values checked here. */
export interface CreateEmailBroadcastRequest {
  body: Record<string, unknown>;
}

export interface UpdateEmailBroadcastRequest {
  broadcast_id: string;
  body: Record<string, unknown>;
}

export interface SendEmailBroadcastRequest {
  broadcast_id: string;
  scheduled_at?: string;
}

export interface ListEmailBroadcastsRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  status?: EmailBroadcastStatus[];
  audience_id?: string;
  tag?: string;
  q?: string;
  created_after?: string;
  created_before?: string;
}

export interface ListEmailBroadcastEventsRequest {
  broadcast_id: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
  type?: string;
}

export interface ListEmailBroadcastRecipientsRequest {
  broadcast_id: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
  to?: string;
}

export interface ListTemplateBroadcastsRequest {
  template_ref: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}
