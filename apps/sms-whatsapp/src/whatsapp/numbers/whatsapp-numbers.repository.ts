import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { SqlFilter } from '../../database/sql-filter';
import { internationalNumber } from '../../numbers/number-spelling';
import type { ConnectedNumber } from '../webhooks/meta-webhook';
import type { NumberReading } from './number-reading';
import { NUMBER_FROM, NUMBER_SELECT } from './whatsapp-number.row';
import type {
  NewNumberEvent,
  NewWhatsAppNumber,
  StaleNumber,
  WhatsAppNumberEventRow,
  WhatsAppNumberRow,
} from './whatsapp-number.row';

/**
 * Named queries over sms_whatsapp.whatsapp_numbers and their events. Reads a workspace makes are
 * scoped by workspace; the lookups by Meta's phone number id are not, since Meta's ids are held
 * by one workspace at a time and that is how webhooks and connects find the holder.
 */
@Injectable()
export class WhatsAppNumbersRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** The number Meta's `metadata.phone_number_id` names, whichever workspace holds it. */
  async findConnectedByPhoneNumberId(
    phoneNumberId: string,
    runner: SqlRunner = this.reads,
  ): Promise<ConnectedNumber | undefined> {
    const rows = rowsOf<ConnectedNumber>(
      await runner.query(
        `SELECT id, workspace_id AS "workspaceId", business_account_id AS "businessAccountId",
           phone_number_id AS "phoneNumberId", phone_number AS "phoneNumber"
         FROM sms_whatsapp.whatsapp_numbers WHERE phone_number_id = $1`,
        [phoneNumberId],
      ),
    );
    return rows[0];
  }

  /**
   * The workspace's number a send names in `from`: its `wan_` id or its phone number (E.164, in
   * any spelling that normalises to it; a connected one first, should the workspace hold the
   * same phone number twice).
   */
  async findSender(
    workspaceId: string,
    from: string,
    runner: SqlRunner = this.reads,
  ): Promise<WhatsAppNumberRow | undefined> {
    const byId = from.startsWith('wan_');
    const column = byId ? 'n.id' : 'n.phone_number';
    const value = byId ? from : (internationalNumber(from) ?? from);
    const rows = rowsOf<WhatsAppNumberRow>(
      await runner.query(
        `SELECT ${NUMBER_SELECT} FROM ${NUMBER_FROM}
         WHERE n.workspace_id = $1 AND ${column} = $2
         ORDER BY (n.status = 'connected') DESC, n.created_at DESC LIMIT 1`,
        [workspaceId, value],
      ),
    );
    return rows[0];
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
  ): Promise<WhatsAppNumberRow | undefined> {
    const rows = rowsOf<WhatsAppNumberRow>(
      await runner.query(
        `SELECT ${NUMBER_SELECT} FROM ${NUMBER_FROM} WHERE n.workspace_id = $1 AND n.id = $2`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /** The number holding Meta's phone number id, in any workspace, locked for a connect. */
  async lockByPhoneNumberId(
    runner: SqlRunner,
    phoneNumberId: string,
  ): Promise<WhatsAppNumberRow | undefined> {
    const rows = rowsOf<WhatsAppNumberRow>(
      await runner.query(
        `SELECT ${NUMBER_SELECT} FROM ${NUMBER_FROM} WHERE n.phone_number_id = $1 FOR UPDATE OF n`,
        [phoneNumberId],
      ),
    );
    return rows[0];
  }

  /** The workspace's numbers (`filter` starts with the workspace), newest first by default. */
  list(
    filter: SqlFilter,
    bound: Record<string, unknown>,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<WhatsAppNumberRow>> {
    return paginate<WhatsAppNumberRow>(
      this.reads,
      {
        from: NUMBER_FROM,
        select: NUMBER_SELECT,
        where: { sql: filter.sql, params: filter.params },
        filters: bound,
        sorts: { created_at: { column: 'n.created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'n.id',
      },
      page,
      cursors,
    );
  }

  listEvents(
    workspaceId: string,
    numberId: string,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<WhatsAppNumberEventRow>> {
    return paginate<WhatsAppNumberEventRow>(
      this.reads,
      {
        from: 'sms_whatsapp.whatsapp_number_events',
        select: 'id, type, summary, metadata, created_at',
        where: { sql: 'workspace_id = $1 AND number_id = $2', params: [workspaceId, numberId] },
        filters: { workspaceId, numberId },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'seq',
      },
      page,
      cursors,
    );
  }

  /** Records a connected number, read from Meta at `reading`. */
  async insert(
    runner: SqlRunner,
    number: NewWhatsAppNumber,
    reading: NumberReading,
  ): Promise<void> {
    await runner.query(
      `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
         phone_number_id, phone_number, channel_id, name, status, quality_rating, messaging_limit,
         throughput_level, is_official_business_account, data_localization_region, meta_synced_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, clock_timestamp())`,
      [
        number.id,
        number.workspaceId,
        number.businessAccountId,
        number.phoneNumberId,
        number.phoneNumber,
        number.channelId,
        number.name,
        number.status,
        reading.quality_rating,
        reading.messaging_limit,
        reading.throughput_level,
        reading.is_official_business_account,
        reading.data_localization_region,
      ],
    );
  }

  /**
   * Stores a reading from Meta (fields Meta left out keep their value). With `seenSyncedAt`, only
   * if no other reading was stored since (a concurrent re-read): false when one was.
   */
  async applyReading(
    runner: SqlRunner,
    id: string,
    reading: NumberReading,
    changes: { status?: string; name?: string; phoneNumber?: string; seenSyncedAt?: string | null },
  ): Promise<boolean> {
    const params: unknown[] = [
      id,
      changes.status ?? reading.status,
      reading.quality_rating,
      reading.messaging_limit,
      reading.throughput_level,
      reading.is_official_business_account,
      reading.data_localization_region,
      changes.name ?? null,
      changes.phoneNumber ?? null,
    ];
    let guard = '';
    if (changes.seenSyncedAt !== undefined) {
      params.push(changes.seenSyncedAt);
      guard = `AND meta_synced_at IS NOT DISTINCT FROM $${params.length}::timestamptz`;
    }
    const rows = rowsOf(
      await runner.query(
        `UPDATE sms_whatsapp.whatsapp_numbers SET status = COALESCE($2, status),
           quality_rating = COALESCE($3, quality_rating),
           messaging_limit = COALESCE($4, messaging_limit),
           throughput_level = COALESCE($5, throughput_level),
           is_official_business_account = COALESCE($6, is_official_business_account),
           data_localization_region = COALESCE($7, data_localization_region),
           name = COALESCE($8, name), phone_number = COALESCE($9, phone_number),
           error = CASE WHEN COALESCE($2, status) = 'failed' THEN error END,
           meta_synced_at = clock_timestamp(), updated_at = clock_timestamp()
         WHERE id = $1 ${guard} RETURNING id`,
        params,
      ),
    );
    return rows.length > 0;
  }

  /** Numbers of every workspace whose last reading from Meta is older than `olderThanMs`. */
  async listStale(olderThanMs: number, limit: number): Promise<StaleNumber[]> {
    return rowsOf<StaleNumber>(
      await this.reads.query(
        `SELECT id, workspace_id, phone_number_id, status, quality_rating, messaging_limit,
           meta_synced_at::text AS meta_synced_at
         FROM sms_whatsapp.whatsapp_numbers
         WHERE meta_synced_at IS NULL
            OR meta_synced_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)
         ORDER BY meta_synced_at NULLS FIRST, id LIMIT $2`,
        [olderThanMs, limit],
      ),
    );
  }

  /** Records events in one statement. */
  async insertEvents(runner: SqlRunner, events: NewNumberEvent[]): Promise<void> {
    if (!events.length) return;
    await runner.query(
      `INSERT INTO sms_whatsapp.whatsapp_number_events
         (id, workspace_id, number_id, type, summary, metadata)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[])`,
      [
        events.map((e) => e.id),
        events.map((e) => e.workspaceId),
        events.map((e) => e.numberId),
        events.map((e) => e.type),
        events.map((e) => e.summary),
        events.map((e) => JSON.stringify(e.metadata)),
      ],
    );
  }
}
