import type { ChannelGroup, Connector } from '@switchboard/contracts';

export interface ConnectorRow {
  id: string;
  workspace_id: string;
  connector_template_ref: string;
  name: string;
  arguments: Connector['arguments'];
  channel_id: string;
  platform: string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface ChannelGroupRow {
  id: string;
  platform_id: string;
  platform_group_id: string;
  platform_group_name: string | null;
  channel_ids: string[];
  created_at: Date | string;
  updated_at: Date | string;
}

/** The WhatsApp connector template's fixed id (the workspace API's `connectorTemplateId`). */
export const WHATSAPP_CONNECTOR_TEMPLATE_ID = '6b1f4a52-9c1e-4d37-8f0a-2f6c7b9d0e11';

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * The spec's Connector. `routingKey` is Meta's phone number id, by which Meta's webhooks reach
 * the connector; `dataCapture.captureEndpoint` is where Meta must post them.
 */
export function toConnector(
  row: ConnectorRow,
  at: { region: string; publicOrigin: string },
): Connector {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    routingKey: row.arguments.phoneId ?? row.channel_id,
    region: at.region,
    connectorTemplateId: WHATSAPP_CONNECTOR_TEMPLATE_ID,
    connectorTemplateRef: row.connector_template_ref,
    name: row.name,
    arguments: row.arguments,
    channel: { channelId: row.channel_id, platform: row.platform },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    dataCapture: { captureEndpoint: `${at.publicOrigin}/webhooks/whatsapp` },
  };
}

export function toChannelGroup(row: ChannelGroupRow): ChannelGroup {
  return {
    id: row.id,
    platformId: row.platform_id,
    platformGroupId: row.platform_group_id,
    platformGroupName: row.platform_group_name,
    channelIds: row.channel_ids,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
