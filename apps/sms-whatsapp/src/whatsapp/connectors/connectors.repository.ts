import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { ChannelGroupRow, ConnectorRow } from './connector.row';

const CONNECTOR_SELECT = `id, workspace_id, connector_template_ref, name, arguments, channel_id,
  platform, created_at, updated_at`;

/** A group's channels are its account's numbers, oldest first. */
const GROUP_SELECT = `g.id, g.platform_id, g.platform_group_id, g.platform_group_name,
  g.created_at, g.updated_at,
  ARRAY(SELECT n.channel_id::text FROM sms_whatsapp.whatsapp_numbers n
        WHERE n.workspace_id = g.workspace_id AND n.business_account_id = g.business_account_id
        ORDER BY n.created_at, n.id) AS channel_ids`;

/** Named queries over sms_whatsapp.connectors and sms_whatsapp.channel_groups, by workspace. */
@Injectable()
export class ConnectorsRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** Serialises the connects of one Meta phone number id until the transaction ends. */
  async lockPhoneNumberId(runner: SqlRunner, phoneNumberId: string): Promise<void> {
    await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 19))`, [
      `whatsapp-phone:${phoneNumberId}`,
    ]);
  }

  async findByChannel(
    runner: SqlRunner,
    workspaceId: string,
    channelId: string,
  ): Promise<ConnectorRow | undefined> {
    const rows = rowsOf<ConnectorRow>(
      await runner.query(
        `SELECT ${CONNECTOR_SELECT} FROM sms_whatsapp.connectors
         WHERE workspace_id = $1 AND channel_id = $2 ORDER BY created_at LIMIT 1`,
        [workspaceId, channelId],
      ),
    );
    return rows[0];
  }

  async insert(
    runner: SqlRunner,
    connector: Omit<ConnectorRow, 'created_at' | 'updated_at'>,
  ): Promise<ConnectorRow> {
    const rows = rowsOf<ConnectorRow>(
      await runner.query(
        `INSERT INTO sms_whatsapp.connectors (id, workspace_id, connector_template_ref, name,
           arguments, channel_id, platform)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${CONNECTOR_SELECT}`,
        [
          connector.id,
          connector.workspace_id,
          connector.connector_template_ref,
          connector.name,
          JSON.stringify(connector.arguments),
          connector.channel_id,
          connector.platform,
        ],
      ),
    );
    return rows[0];
  }

  async update(
    runner: SqlRunner,
    id: string,
    name: string,
    args: ConnectorRow['arguments'],
  ): Promise<ConnectorRow> {
    const rows = rowsOf<ConnectorRow>(
      await runner.query(
        `UPDATE sms_whatsapp.connectors SET name = $2, arguments = $3, updated_at = clock_timestamp()
         WHERE id = $1 RETURNING ${CONNECTOR_SELECT}`,
        [id, name, JSON.stringify(args)],
      ),
    );
    return rows[0];
  }

  /** The workspace's group of the account (one per workspace and WABA), created or renamed. */
  async upsertChannelGroup(
    runner: SqlRunner,
    group: { id: string; workspaceId: string; waba: string; name: string; accountId: string },
  ): Promise<void> {
    await runner.query(
      `INSERT INTO sms_whatsapp.channel_groups AS g (id, workspace_id, platform_id,
         platform_group_id, platform_group_name, business_account_id)
       VALUES ($1, $2, 'whatsapp', $3, $4, $5)
       ON CONFLICT (workspace_id, platform_id, platform_group_id) DO UPDATE
         SET platform_group_name = EXCLUDED.platform_group_name,
             business_account_id = EXCLUDED.business_account_id, updated_at = clock_timestamp()`,
      [group.id, group.workspaceId, group.waba, group.name, group.accountId],
    );
  }

  /** The workspace's channel groups, oldest first (a token page walks forward only). */
  listChannelGroups(
    workspaceId: string,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<ChannelGroupRow>> {
    return paginate<ChannelGroupRow>(
      this.reads,
      {
        from: 'sms_whatsapp.channel_groups g',
        select: GROUP_SELECT,
        where: { sql: 'g.workspace_id = $1', params: [workspaceId] },
        filters: { workspaceId },
        sorts: { created_at: { column: 'g.created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'asc',
        idColumn: 'g.id',
      },
      page,
      cursors,
    );
  }
}
