import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { ACCOUNT_SELECT } from './business-account.row';
import type { AccountReading, BusinessAccountRow } from './business-account.row';

/** An account due for its periodic re-read from Meta. */
export interface StaleAccount {
  id: string;
  waba: string;
  /** As text, to the microsecond (a Date would lose them). */
  meta_synced_at: string | null;
}

/**
 * Named queries over sms_whatsapp.whatsapp_business_accounts. A WABA is held by one workspace
 * (webhooks are routed by it), which `upsert` enforces.
 */
@Injectable()
export class BusinessAccountsRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /**
   * Records the account for the workspace, or refreshes it when the workspace holds it already;
   * its id, or undefined when another workspace holds the WABA.
   */
  async upsert(
    runner: SqlRunner,
    account: { id: string; workspaceId: string; waba: string },
    reading: AccountReading,
  ): Promise<string | undefined> {
    const rows = rowsOf<{ id: string }>(
      await runner.query(
        `INSERT INTO sms_whatsapp.whatsapp_business_accounts AS a (id, workspace_id, waba, name,
           account_review_status, business_verification_status,
           marketing_messages_onboarding_status, portfolio, meta_synced_at)
         VALUES ($1, $2, $3, COALESCE($4, $3), $5, $6, $7, $8, clock_timestamp())
         ON CONFLICT (waba) DO UPDATE SET name = COALESCE($4, a.name),
           account_review_status = COALESCE($5, a.account_review_status),
           business_verification_status = COALESCE($6, a.business_verification_status),
           marketing_messages_onboarding_status =
             COALESCE($7, a.marketing_messages_onboarding_status),
           portfolio = COALESCE($8, a.portfolio),
           meta_synced_at = clock_timestamp(), updated_at = clock_timestamp()
         WHERE a.workspace_id = EXCLUDED.workspace_id
         RETURNING id`,
        [
          account.id,
          account.workspaceId,
          account.waba,
          reading.name,
          reading.account_review_status,
          reading.business_verification_status,
          reading.marketing_messages_onboarding_status,
          reading.portfolio && JSON.stringify(reading.portfolio),
        ],
      ),
    );
    return rows[0]?.id;
  }

  /** The workspace that holds the WABA, if any. */
  async holderOf(waba: string, runner: SqlRunner = this.reads): Promise<string | undefined> {
    const rows = rowsOf<{ workspace_id: string }>(
      await runner.query(
        'SELECT workspace_id FROM sms_whatsapp.whatsapp_business_accounts WHERE waba = $1',
        [waba],
      ),
    );
    return rows[0]?.workspace_id;
  }

  /** The workspace's account by its `waa_` id or Meta's WABA id. */
  async findByRef(workspaceId: string, ref: string): Promise<BusinessAccountRow | undefined> {
    const column = ref.startsWith('waa_') ? 'id' : 'waba';
    const rows = rowsOf<BusinessAccountRow>(
      await this.reads.query(
        `SELECT ${ACCOUNT_SELECT} FROM sms_whatsapp.whatsapp_business_accounts
         WHERE workspace_id = $1 AND ${column} = $2`,
        [workspaceId, ref],
      ),
    );
    return rows[0];
  }

  list(workspaceId: string, page: PageRequest, cursors: CursorCodec) {
    return paginate<BusinessAccountRow>(
      this.reads,
      {
        from: 'sms_whatsapp.whatsapp_business_accounts',
        select: ACCOUNT_SELECT,
        where: { sql: 'workspace_id = $1', params: [workspaceId] },
        filters: { workspaceId },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      page,
      cursors,
    );
  }

  /** Accounts of every workspace whose last reading from Meta is older than `olderThanMs`. */
  async listStale(olderThanMs: number, limit: number): Promise<StaleAccount[]> {
    return rowsOf<StaleAccount>(
      await this.reads.query(
        `SELECT id, waba, meta_synced_at::text AS meta_synced_at FROM sms_whatsapp.whatsapp_business_accounts
         WHERE meta_synced_at IS NULL
            OR meta_synced_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)
         ORDER BY meta_synced_at NULLS FIRST, id LIMIT $2`,
        [olderThanMs, limit],
      ),
    );
  }

  /** Stores a periodic reading, unless another was stored since `seenSyncedAt`. */
  async applyReading(
    id: string,
    reading: AccountReading,
    seenSyncedAt: string | null,
  ): Promise<void> {
    await this.reads.query(
      `UPDATE sms_whatsapp.whatsapp_business_accounts SET name = COALESCE($2, name),
         account_review_status = COALESCE($3, account_review_status),
         business_verification_status = COALESCE($4, business_verification_status),
         marketing_messages_onboarding_status =
           COALESCE($5, marketing_messages_onboarding_status),
         portfolio = COALESCE($6, portfolio),
         meta_synced_at = clock_timestamp(), updated_at = clock_timestamp()
       WHERE id = $1 AND meta_synced_at IS NOT DISTINCT FROM $7::timestamptz`,
      [
        id,
        reading.name,
        reading.account_review_status,
        reading.business_verification_status,
        reading.marketing_messages_onboarding_status,
        reading.portfolio && JSON.stringify(reading.portfolio),
        seenSyncedAt,
      ],
    );
  }
}
