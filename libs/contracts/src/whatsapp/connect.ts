import type {
  WhatsAppBusinessAccount,
  WhatsAppNumber,
  WhatsAppNumberEvent,
  WhatsAppNumberProfile,
} from '@messagebird/sdk';
import type { PageRequest } from '../pagination';

export type { WhatsAppBusinessAccount, WhatsAppNumber, WhatsAppNumberEvent, WhatsAppNumberProfile };

/**
 * Connecting WhatsApp numbers (ADR 0013): the workspace API's connectors and channel groups, and
 * the SDK's `whatsapp.numbers` and `whatsapp.businessAccounts` reads of what they connect.
 * Served by the sms-whatsapp service.
 */
export const WhatsAppConnectSubjects = {
  CreateConnector: 'sms_whatsapp.connector.create',
  ListChannelGroups: 'sms_whatsapp.channel_group.list',
  ListNumbers: 'sms_whatsapp.whatsapp_number.list',
  GetNumber: 'sms_whatsapp.whatsapp_number.get',
  ListNumberEvents: 'sms_whatsapp.whatsapp_number.list_events',
  GetNumberProfile: 'sms_whatsapp.whatsapp_number.get_profile',
  ListBusinessAccounts: 'sms_whatsapp.whatsapp_business_account.list',
  GetBusinessAccount: 'sms_whatsapp.whatsapp_business_account.get',
} as const;

/** The one connector template this platform connects. */
export const WHATSAPP_CONNECTOR_TEMPLATE_REF = 'whatsapp';

/** A connector's `arguments` as given: a number of an account, or a legacy channel to migrate. */
export interface WhatsAppConnectorArguments {
  wabaId?: string;
  phoneId?: string;
  phoneNumber?: string;
  phoneRegistrationPin?: string;
  isCpMigrated?: boolean;
  cpChannelId?: string;
  cpAccessKey?: string;
}

/** The spec's Connector (workspace API, camelCase). `arguments` never carry the PIN or the access key. */
export interface Connector {
  id: string;
  workspaceId: string;
  routingKey: string;
  region: string;
  connectorTemplateId: string;
  connectorTemplateRef: string;
  name: string;
  arguments: Omit<WhatsAppConnectorArguments, 'phoneRegistrationPin' | 'cpAccessKey'>;
  channel: { channelId: string; platform: string };
  createdAt: string;
  updatedAt: string;
  dataCapture: { captureEndpoint: string };
}

/** The spec's Channel group: a WhatsApp Business Account and the channels of its numbers. */
export interface ChannelGroup {
  id: string;
  platformId: string;
  platformGroupId: string;
  platformGroupName: string | null;
  channelIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface CreateConnectorRequest {
  /** The workspace of the path, which the gateway checked is the access key's. */
  workspace_id: string;
  /** The region the workspace's data lives in. */
  region: string;
  connectorTemplateRef: string;
  name: string;
  arguments: WhatsAppConnectorArguments;
}

/** `201` for a new connector, `200` when the number was connected already and was refreshed. */
export interface CreateConnectorReply {
  created: boolean;
  connector: Connector;
}

export interface ListChannelGroupsRequest {
  workspace_id: string;
  limit: number;
  /** A `nextPageToken` passed back. */
  pageToken?: string;
}

export interface ListWhatsAppNumbersRequest extends PageRequest {
  waba?: string;
  phone_number?: string;
  status?: string[];
  scope?: 'system' | 'workspace';
}

export interface WhatsAppNumberIdRequest {
  number_id: string;
}

export interface ListWhatsAppNumberEventsRequest extends PageRequest {
  number_id: string;
}

export type ListWhatsAppBusinessAccountsRequest = PageRequest;

export interface WhatsAppBusinessAccountRefRequest {
  /** A `waa_` id or Meta's WABA id. */
  business_account_ref: string;
}
