import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { RollupReads } from '@switchboard/persistence';

export const WHATSAPP_COUNTS = [
  'accepted',
  'sent',
  'delivered',
  'failed',
  'rejected',
  'read',
] as const;
export type WhatsappCounts = Record<(typeof WHATSAPP_COUNTS)[number], number>;

/** The WhatsApp rollups' reads (ADR 18), and the template ids a slug filter stands for. */
@Injectable()
export class WhatsappStatsRepository extends RollupReads<(typeof WHATSAPP_COUNTS)[number]> {
  private readonly catalog: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    const runner = poolRunner(dataSource);
    super(runner, {
      schema: 'sms_whatsapp',
      outbound: 'sms_whatsapp.whatsapp_stats_rollups',
      daily: 'sms_whatsapp.whatsapp_stats_daily_rollups',
      inbound: 'sms_whatsapp.whatsapp_inbound_stats_rollups',
      counts: WHATSAPP_COUNTS,
      stream: 'whatsapp',
    });
    this.catalog = runner;
  }

  /** The template ids a `template` filter names: the id itself, or the templates of that slug. */
  async templateIds(workspaceId: string, idOrSlug: string): Promise<string[]> {
    const rows = rowsOf<{ id: string }>(
      await this.catalog.query(
        `SELECT id FROM sms_whatsapp.whatsapp_templates WHERE workspace_id = $1 AND slug = $2`,
        [workspaceId, idOrSlug],
      ),
    );
    return [idOrSlug, ...rows.map((row) => row.id)];
  }
}
