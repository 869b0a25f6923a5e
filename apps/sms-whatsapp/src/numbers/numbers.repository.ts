import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { SqlFilter } from '../database/sql-filter';
import type { AllocationRow, OrderRow, StockRow } from './number-rows';
import { STOCK_KEY } from './stock.repository';

const ALLOCATION_FROM = `sms_whatsapp.number_allocations a
  JOIN sms_whatsapp.numbers n ON n.number = a.number AND n.country_code = a.country_code`;
const ALLOCATION_COLUMNS =
  'a.id, a.workspace_id, n.kind, a.number, n.country_code, n.number_type, n.capabilities, a.status, a.allocated_at, a.released_at';
const AVAILABLE_COLUMNS =
  'n.number, n.country_code, n.number_type, n.capabilities, n.kind, n.created_at';
const ORDER_COLUMNS =
  'id, workspace_id, number, country_code, number_type, status, number_id, failure_reason, completed_at, created_at, updated_at';
/** Stock on sale: dedicated numbers no workspace holds. */
export const ON_SALE = `n.kind = 'dedicated' AND NOT EXISTS (
  SELECT 1 FROM sms_whatsapp.number_allocations held
  WHERE held.number = n.number AND held.country_code = n.country_code
    AND held.released_at IS NULL)`;

/** The stored spellings a number may mean, in one country or (null) any. */
export interface Orderable {
  numbers: string[];
  country: string | null;
}

/** Named queries over the workspaces' numbers, their orders and the stock on sale. */
@Injectable()
export class NumbersRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** The workspace's held numbers (`filter` starts with the workspace), newest first. */
  listAllocations(
    filter: SqlFilter,
    bound: Record<string, unknown>,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<AllocationRow>> {
    return paginate<AllocationRow>(
      this.reads,
      {
        from: ALLOCATION_FROM,
        select: ALLOCATION_COLUMNS,
        where: { sql: filter.sql, params: filter.params },
        filters: bound,
        sorts: { allocated_at: { column: 'a.allocated_at', type: 'timestamptz' } },
        defaultSort: 'allocated_at',
        defaultOrder: 'desc',
        idColumn: 'a.id',
      },
      page,
      cursors,
    );
  }

  async findAllocation(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
    lock = false,
  ): Promise<AllocationRow | undefined> {
    const rows = rowsOf<AllocationRow>(
      await runner.query(
        `SELECT ${ALLOCATION_COLUMNS} FROM ${ALLOCATION_FROM}
         WHERE a.workspace_id = $1 AND a.id = $2 AND a.released_at IS NULL
         ${lock ? 'FOR UPDATE OF a' : ''}`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  async release(runner: SqlRunner, id: string): Promise<void> {
    await runner.query(
      `UPDATE sms_whatsapp.number_allocations
       SET status = 'released', released_at = clock_timestamp() WHERE id = $1`,
      [id],
    );
  }

  /** Stock on sale in one country (`filter` starts with it), newest stock first. */
  listAvailable(
    filter: SqlFilter,
    bound: Record<string, unknown>,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<StockRow>> {
    return paginate<StockRow>(
      this.reads,
      {
        from: 'sms_whatsapp.numbers n',
        select: AVAILABLE_COLUMNS,
        where: { sql: `${filter.sql} AND ${ON_SALE}`, params: filter.params },
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

  async findAvailable(wanted: Orderable): Promise<StockRow | undefined> {
    const rows = rowsOf<StockRow>(
      await this.reads.query(
        `SELECT ${AVAILABLE_COLUMNS} FROM sms_whatsapp.numbers n
         WHERE n.number = ANY($1::text[]) AND ($2::text IS NULL OR n.country_code = $2)
           AND ${ON_SALE}
         ORDER BY n.number, n.country_code LIMIT 1`,
        [wanted.numbers, wanted.country],
      ),
    );
    return rows[0];
  }

  /** The countries a short code is on sale in, by country code. */
  async countriesOnSale(shortCode: string): Promise<string[]> {
    const rows = rowsOf<{ country_code: string }>(
      await this.reads.query(
        `SELECT n.country_code FROM sms_whatsapp.numbers n
         WHERE n.number = $1 AND ${ON_SALE} ORDER BY n.country_code`,
        [shortCode],
      ),
    );
    return rows.map((row) => row.country_code);
  }

  /**
   * Allocates the first of `candidates` on sale to the workspace and records its completed
   * order, in one statement. A concurrent order of the same number waits on the allocations'
   * unique index and then inserts nothing: no row comes back, and exactly one order wins.
   */
  async allocateAndOrder(
    runner: SqlRunner,
    ids: { allocationId: string; orderId: string; workspaceId: string },
    wanted: Orderable,
  ): Promise<OrderRow | undefined> {
    const rows = rowsOf<OrderRow>(
      await runner.query(
        `WITH stock AS (
           SELECT number, country_code, number_type FROM sms_whatsapp.numbers n
           WHERE number = ANY($4::text[]) AND ($5::text IS NULL OR country_code = $5)
             AND ${ON_SALE}
           ORDER BY number, country_code LIMIT 1
           -- Shared with other orders; an operator taking the number out of stock waits for it,
           -- or this order sees it gone (no row: E14001, not a foreign-key error).
           FOR SHARE),
         held AS (
           INSERT INTO sms_whatsapp.number_allocations (id, workspace_id, number, country_code)
           SELECT $1, $3, number, country_code FROM stock
           ON CONFLICT (number, country_code) WHERE released_at IS NULL DO NOTHING
           RETURNING id, number, allocated_at)
         INSERT INTO sms_whatsapp.number_orders
           (id, workspace_id, number, country_code, number_type, status, number_id, completed_at,
            created_at, updated_at)
         SELECT $2, $3, held.number, stock.country_code, stock.number_type, 'completed', held.id,
           held.allocated_at, held.allocated_at, held.allocated_at
         FROM held CROSS JOIN stock
         RETURNING ${ORDER_COLUMNS}`,
        [ids.allocationId, ids.orderId, ids.workspaceId, wanted.numbers, wanted.country],
      ),
    );
    return rows[0];
  }

  listOrders(
    workspaceId: string,
    status: string | undefined,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<OrderRow>> {
    const params: unknown[] = [workspaceId];
    if (status) params.push(status);
    return paginate<OrderRow>(
      this.reads,
      {
        from: 'sms_whatsapp.number_orders',
        select: ORDER_COLUMNS,
        where: { sql: `workspace_id = $1${status ? ' AND status = $2' : ''}`, params },
        filters: { workspaceId, status: status ?? null },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      page,
      cursors,
    );
  }

  async findOrder(workspaceId: string, id: string): Promise<OrderRow | undefined> {
    const rows = rowsOf<OrderRow>(
      await this.reads.query(
        `SELECT ${ORDER_COLUMNS} FROM sms_whatsapp.number_orders WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }
}
