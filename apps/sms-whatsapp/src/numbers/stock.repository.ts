import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { StockRow } from './number-rows';

const STOCK_FROM = `sms_whatsapp.numbers n LEFT JOIN sms_whatsapp.number_allocations a
  ON a.number = n.number AND a.released_at IS NULL`;
const STOCK_COLUMNS = `n.number, n.country_code, n.number_type, n.capabilities, n.kind, n.created_at,
  a.workspace_id AS holder_workspace_id, a.id AS holder_number_id, a.allocated_at AS holder_allocated_at`;

export interface NewStockedNumber {
  number: string;
  country_code: string;
  number_type: string;
  capabilities: string[];
  kind: 'dedicated' | 'shared';
}

/** Named queries over the operator's stock of numbers. */
@Injectable()
export class StockRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** Inserts the number unless it is stocked already (then nothing comes back). */
  async insert(runner: SqlRunner, number: NewStockedNumber): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(
        `INSERT INTO sms_whatsapp.numbers (number, country_code, number_type, capabilities, kind)
         VALUES ($1, $2, $3, $4::text[], $5) ON CONFLICT (number) DO NOTHING RETURNING number`,
        [number.number, number.country_code, number.number_type, number.capabilities, number.kind],
      ),
    );
    return rows.length > 0;
  }

  /** The operator's assignment of a shared number to a workspace. */
  async allocate(runner: SqlRunner, id: string, workspaceId: string, number: string) {
    await runner.query(
      'INSERT INTO sms_whatsapp.number_allocations (id, workspace_id, number) VALUES ($1, $2, $3)',
      [id, workspaceId, number],
    );
  }

  async find(number: string, runner: SqlRunner = this.reads): Promise<StockRow | undefined> {
    const rows = rowsOf<StockRow>(
      await runner.query(`SELECT ${STOCK_COLUMNS} FROM ${STOCK_FROM} WHERE n.number = $1`, [
        number,
      ]),
    );
    return rows[0];
  }

  /** Locks the stocked number against a concurrent order (its allocation's key check waits). */
  async lock(runner: SqlRunner, number: string): Promise<boolean> {
    const rows = rowsOf(
      await runner.query('SELECT number FROM sms_whatsapp.numbers WHERE number = $1 FOR UPDATE', [
        number,
      ]),
    );
    return rows.length > 0;
  }

  /** Removes the number with the past (released) holdings that refer to it. */
  async delete(runner: SqlRunner, number: string): Promise<void> {
    await runner.query('DELETE FROM sms_whatsapp.number_allocations WHERE number = $1', [number]);
    await runner.query('DELETE FROM sms_whatsapp.numbers WHERE number = $1', [number]);
  }

  list(
    where: { sql: string; params: unknown[] },
    bound: Record<string, unknown>,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<StockRow>> {
    return paginate<StockRow>(
      this.reads,
      {
        from: STOCK_FROM,
        select: STOCK_COLUMNS,
        where,
        filters: bound,
        sorts: { created_at: { column: 'n.created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'n.number',
      },
      page,
      cursors,
    );
  }
}
