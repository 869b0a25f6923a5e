import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { StockRow } from './number-rows';

const STOCK_FROM = `sms_whatsapp.numbers n LEFT JOIN sms_whatsapp.number_allocations a
  ON a.number = n.number AND a.country_code = n.country_code AND a.released_at IS NULL`;
/** A stocked number's key: a short code's digits may be stocked in several countries. */
export const STOCK_KEY = `(n.number || ' ' || n.country_code) COLLATE "C"`;
const STOCK_COLUMNS = `n.number, n.country_code, n.number_type, n.capabilities, n.kind, n.created_at,
  a.workspace_id AS holder_workspace_id, a.id AS holder_number_id, a.allocated_at AS holder_allocated_at`;

/** A stocked number: its digits as stored, and the country it is stocked in. */
export interface StockedKey {
  number: string;
  country_code: string;
}

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
         VALUES ($1, $2, $3, $4::text[], $5) ON CONFLICT (number, country_code) DO NOTHING
         RETURNING number`,
        [number.number, number.country_code, number.number_type, number.capabilities, number.kind],
      ),
    );
    return rows.length > 0;
  }

  /** The operator's assignment of a shared number to a workspace. */
  async allocate(runner: SqlRunner, id: string, workspaceId: string, number: StockedKey) {
    await runner.query(
      `INSERT INTO sms_whatsapp.number_allocations (id, workspace_id, number, country_code)
       VALUES ($1, $2, $3, $4)`,
      [id, workspaceId, number.number, number.country_code],
    );
  }

  async find(number: StockedKey, runner: SqlRunner = this.reads): Promise<StockRow | undefined> {
    const rows = rowsOf<StockRow>(
      await runner.query(
        `SELECT ${STOCK_COLUMNS} FROM ${STOCK_FROM} WHERE n.number = $1 AND n.country_code = $2`,
        [number.number, number.country_code],
      ),
    );
    return rows[0];
  }

  /** The countries `number` is stocked in (a short code may be in several), by country code. */
  async countriesOf(number: string, runner: SqlRunner = this.reads): Promise<string[]> {
    const rows = rowsOf<{ country_code: string }>(
      await runner.query(
        'SELECT country_code FROM sms_whatsapp.numbers WHERE number = $1 ORDER BY country_code',
        [number],
      ),
    );
    return rows.map((row) => row.country_code);
  }

  /** Locks the stocked number against a concurrent order (its allocation's key check waits). */
  async lock(runner: SqlRunner, number: StockedKey): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(
        `SELECT number FROM sms_whatsapp.numbers WHERE number = $1 AND country_code = $2
         FOR UPDATE`,
        [number.number, number.country_code],
      ),
    );
    return rows.length > 0;
  }

  /** Removes the number with the past (released) holdings that refer to it. */
  async delete(runner: SqlRunner, number: StockedKey): Promise<void> {
    const key = [number.number, number.country_code];
    await runner.query(
      'DELETE FROM sms_whatsapp.number_allocations WHERE number = $1 AND country_code = $2',
      key,
    );
    await runner.query(
      'DELETE FROM sms_whatsapp.numbers WHERE number = $1 AND country_code = $2',
      key,
    );
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
        idColumn: STOCK_KEY,
      },
      page,
      cursors,
    );
  }
}
