import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SmsSenderCategory } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

export interface SmsSenderRow {
  id: string;
  workspace_id: string;
  sender: string;
  categories: SmsSenderCategory[] | null;
  created_at: Date | string;
}

const COLUMNS = 'id, workspace_id, sender, categories, created_at';

/** Named queries over sms_whatsapp.sms_senders; every one is scoped by workspace. */
@Injectable()
export class SmsSendersRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** The new row, or nothing when the workspace has this sender already. */
  async insert(runner: SqlRunner, row: Omit<SmsSenderRow, 'created_at'>) {
    const rows = rowsOf<SmsSenderRow>(
      await runner.query(
        `INSERT INTO sms_whatsapp.sms_senders (id, workspace_id, sender, categories)
         VALUES ($1, $2, $3, $4::text[])
         ON CONFLICT ON CONSTRAINT sms_senders_workspace_sender_key DO NOTHING
         RETURNING ${COLUMNS}`,
        [row.id, row.workspace_id, row.sender, row.categories],
      ),
    );
    return rows[0];
  }

  list(workspaceId: string, page: PageRequest, cursors: CursorCodec): Promise<Page<SmsSenderRow>> {
    return paginate<SmsSenderRow>(
      this.reads,
      {
        from: 'sms_whatsapp.sms_senders',
        select: COLUMNS,
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

  async delete(runner: SqlRunner, workspaceId: string, id: string): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(
        'DELETE FROM sms_whatsapp.sms_senders WHERE workspace_id = $1 AND id = $2 RETURNING id',
        [workspaceId, id],
      ),
    );
    return rows.length > 0;
  }
}
