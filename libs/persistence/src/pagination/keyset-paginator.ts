import type { ErrorDetail } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { CursorBinding, CursorCodec, CursorPosition } from './cursor-codec';
import { MAX_PAGE_LIMIT } from './page';
import type { KeysetList, Page, PageRequest, SortOrder, SortSpec } from './page';

/** Anything that runs SQL with `$n` parameters and resolves to the rows: DataSource, EntityManager, QueryRunner. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** Helper columns every page query adds; taken off the rows before they are returned. */
const VALUE_COLUMN = '__keyset_value';
const ID_COLUMN = '__keyset_id';
/** Whether any row lies at the cursor or before it (same value on every row; cursor pages only). */
const BEFORE_COLUMN = '__keyset_before';

/**
 * One page of a list by keyset: `ORDER BY sort, id` in the request's order, `WHERE (sort, id) >
 * cursor` (or `<`), `LIMIT limit + 1` to learn whether more rows follow. Never OFFSET. A page
 * costs one query, plus one `EXISTS` for the opposite direction when a cursor was passed, plus one
 * `COUNT` with `include_total`. Rows are returned in the request's order whichever way it walked.
 */
export async function paginate<Row>(
  runner: SqlRunner,
  list: KeysetList,
  request: PageRequest,
  codec: CursorCodec,
): Promise<Page<Row>> {
  const { sortName, spec, order, limit } = checkRequest(list, request);
  const binding: CursorBinding = {
    sort: sortName,
    order,
    filters: { from: list.from, filters: list.filters },
  };
  const keyset = new Keyset(list, spec, order);

  // undefined: no cursor (a first page); null: the end of the list.
  let at: CursorPosition | null | undefined;
  let forward = true;
  // Both: the rows between them. The SDK's iterator asks so, sending each page's next_cursor as
  // `starting_after` beside the `ending_before` it was started with, and stops at that cursor.
  let until: CursorPosition | null | undefined;
  if (request.starting_after !== undefined) {
    at = codec.decode(request.starting_after, binding);
    if (request.ending_before !== undefined) until = codec.decode(request.ending_before, binding);
  } else if (request.ending_before !== undefined) {
    at = codec.decode(request.ending_before, binding);
    forward = false;
  }

  const fetched = await keyset.rows(runner, at, forward, limit + 1, until);
  const more = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  if (!forward) rows.reverse();
  const first = rows.length ? keyset.position(rows[0]) : undefined;
  const last = rows.length ? keyset.position(rows[rows.length - 1]) : undefined;

  // Behind the page (before its first row walking forward, after its last walking backward) may
  // lie rows at or behind the cursor, which can have changed since it was made. The page's own
  // statement said whether any does (the rows behind the nearest row returned are exactly those
  // at or behind the cursor); an empty page asks.
  const behind = async (anchor: CursorPosition | undefined, cursor: CursorPosition | null) =>
    anchor ? fetched[0][BEFORE_COLUMN] === true : keyset.exists(runner, cursor, !forward);
  let next: CursorPosition | null | undefined;
  let prev: CursorPosition | null | undefined;
  if (at === undefined) {
    if (more) next = last;
  } else if (forward) {
    if (more) next = last;
    if (await behind(first, at)) prev = first ?? at;
  } else {
    if (more) prev = first;
    if (await behind(last, at)) next = last ?? at;
  }

  const encode = (position: CursorPosition | null | undefined) =>
    position === undefined ? null : codec.encode(binding, position);
  const page: Page<Row> = {
    data: rows.map((row) => keyset.strip(row) as Row),
    next_cursor: encode(next),
    prev_cursor: encode(prev),
    // An empty first page points at the end of the list: `ending_before` it returns the rows
    // that exist by then, i.e. everything created since.
    refresh_cursor: encode(first ?? (at === undefined ? null : undefined)),
  };
  if (request.include_total) page.total = await keyset.count(runner);
  return page;
}

function checkRequest(list: KeysetList, request: PageRequest) {
  const details: ErrorDetail[] = [];
  const sortName = request.sort ?? list.defaultSort;
  const spec = Object.hasOwn(list.sorts, sortName) ? list.sorts[sortName] : undefined;
  if (!spec) {
    details.push({
      param: 'sort',
      message: `must be one of: ${Object.keys(list.sorts).join(', ')}`,
    });
  }
  const order = request.order ?? list.defaultOrder;
  if (order !== 'asc' && order !== 'desc')
    details.push({ param: 'order', message: 'must be asc or desc' });
  const maxLimit = list.maxLimit ?? MAX_PAGE_LIMIT;
  const { limit } = request;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    details.push({ param: 'limit', message: `must be an integer from 1 to ${maxLimit}` });
  }
  if (!spec || details.length) throw AppError.validation(details);
  return { sortName, spec, order, limit };
}

/** The SQL of one list under one sort and order. Column names and expressions are trusted. */
class Keyset {
  private readonly column: string;
  private readonly id: string;

  constructor(
    private readonly list: KeysetList,
    private readonly spec: SortSpec,
    private readonly order: SortOrder,
  ) {
    this.column = `(${spec.column})`;
    this.id = `(${list.idColumn})`;
  }

  /**
   * Up to `count` rows beyond `at` walking forward (the list's order) or backward, and short of
   * `until` when given.
   */
  async rows(
    runner: SqlRunner,
    at: CursorPosition | null | undefined,
    forward: boolean,
    count: number,
    until?: CursorPosition | null,
  ) {
    const params = [...this.list.where.params];
    const direction = (forward ? this.order : reverse(this.order)).toUpperCase();
    let beyond = at === undefined ? 'TRUE' : this.beyond(at, forward, params);
    if (until !== undefined) beyond += ` AND ${this.beyond(until, !forward, params)}`;
    // With a cursor, whether any row lies at it or behind it: an uncorrelated EXISTS, run once.
    const behind = at
      ? `, EXISTS (SELECT 1 FROM ${this.list.from} WHERE ${this.where()} AND ${this.atOrBehind(at, forward, params)}) AS "${BEFORE_COLUMN}"`
      : '';
    params.push(count);
    const sql =
      `SELECT ${this.list.select}, ${this.valueText()} AS "${VALUE_COLUMN}", ${this.id}::text AS "${ID_COLUMN}"${behind}` +
      ` FROM ${this.list.from} WHERE ${this.where()} AND ${beyond}` +
      ` ORDER BY ${this.column} ${direction}, ${this.id} ${direction} LIMIT $${params.length}`;
    return rowsOf(await runner.query(sql, params));
  }

  /** Whether any row lies beyond `at`, walking forward or backward. */
  async exists(runner: SqlRunner, at: CursorPosition | null, forward: boolean): Promise<boolean> {
    const params = [...this.list.where.params];
    const beyond = this.beyond(at, forward, params);
    const sql = `SELECT EXISTS (SELECT 1 FROM ${this.list.from} WHERE ${this.where()} AND ${beyond}) AS "found"`;
    const [row] = rowsOf(await runner.query(sql, params));
    return row?.found === true;
  }

  async count(runner: SqlRunner): Promise<number> {
    const sql = `SELECT count(*) AS "total" FROM ${this.list.from} WHERE ${this.where()}`;
    const [row] = rowsOf(await runner.query(sql, [...this.list.where.params]));
    return Number(row?.total ?? 0);
  }

  position(row: Record<string, unknown>): CursorPosition {
    const value = row[VALUE_COLUMN];
    return { value: typeof value === 'string' ? value : null, id: String(row[ID_COLUMN]) };
  }

  /**
   * The row without the helper columns, built afresh: deleting them from a copy would turn every
   * row into a slow dictionary-mode object (and make serialising the page slower too).
   */
  strip(row: Record<string, unknown>): Record<string, unknown> {
    const rest: Record<string, unknown> = {};
    for (const key in row)
      if (key !== VALUE_COLUMN && key !== ID_COLUMN && key !== BEFORE_COLUMN) rest[key] = row[key];
    return rest;
  }

  private where(): string {
    const sql = this.list.where.sql.trim();
    return sql ? `(${sql})` : 'TRUE';
  }

  /** The sort value as text that casts back to exactly the same value (timestamps to the µs). */
  private valueText(): string {
    switch (this.spec.type) {
      case 'timestamptz':
        return `to_char(${this.column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
      case 'text':
      case 'numeric':
        return `${this.column}::text`;
    }
  }

  /**
   * The rows strictly beyond `at` walking forward (in the list's order) or backward. NULL sort
   * values sort as Postgres puts them by default: after every value ascending, before descending.
   */
  private beyond(at: CursorPosition | null, forward: boolean, params: unknown[]): string {
    if (at === null) return forward ? 'FALSE' : 'TRUE';
    const ascending = (forward ? this.order : reverse(this.order)) === 'asc';
    params.push(at.id);
    const id = `$${params.length}`;
    const { column } = this;
    if (at.value === null) {
      return ascending
        ? `(${column} IS NULL AND ${this.id} > ${id})`
        : `(${column} IS NOT NULL OR ${this.id} < ${id})`;
    }
    params.push(at.value);
    // Untyped, the value takes the column's type (so an index on an integer column still serves);
    // a timestamptz is cast since its text form is only unambiguous as timestamptz.
    const value =
      this.spec.type === 'timestamptz' ? `$${params.length}::timestamptz` : `$${params.length}`;
    if (!ascending) return `(${column}, ${this.id}) < (${value}, ${id})`;
    const after = `(${column}, ${this.id}) > (${value}, ${id})`;
    return this.spec.nullable ? `(${column} IS NULL OR ${after})` : after;
  }

  /**
   * The rows `beyond` leaves out: the one at `at` and those behind it, walking forward or
   * backward. Written as `beyond` is, so an index on (sort, id) serves it too.
   */
  private atOrBehind(at: CursorPosition, forward: boolean, params: unknown[]): string {
    const ascending = (forward ? this.order : reverse(this.order)) === 'asc';
    params.push(at.id);
    const id = `$${params.length}`;
    const { column } = this;
    if (at.value === null) {
      // NULL sort values come after every value ascending and before them descending.
      return ascending
        ? `(${column} IS NOT NULL OR ${this.id} <= ${id})`
        : `(${column} IS NULL AND ${this.id} >= ${id})`;
    }
    params.push(at.value);
    const value =
      this.spec.type === 'timestamptz' ? `$${params.length}::timestamptz` : `$${params.length}`;
    if (ascending) return `(${column}, ${this.id}) <= (${value}, ${id})`;
    const before = `(${column}, ${this.id}) >= (${value}, ${id})`;
    return this.spec.nullable ? `(${column} IS NULL OR ${before})` : before;
  }
}

function reverse(order: SortOrder): SortOrder {
  return order === 'asc' ? 'desc' : 'asc';
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  if (!Array.isArray(result)) throw new Error('The query runner did not return rows');
  return result as Record<string, unknown>[];
}
