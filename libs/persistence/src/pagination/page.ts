/** Request and response shapes of every paginated list (spec: "Pagination"). */

export type SortOrder = 'asc' | 'desc';

/** `limit` when the request names none (spec: 1 to 100, default 25). */
export const DEFAULT_PAGE_LIMIT = 25;
/** Largest `limit` a list accepts unless it sets its own `maxLimit`. */
export const MAX_PAGE_LIMIT = 100;

export interface PageRequest {
  limit: number;
  /** A `next_cursor`: the page of rows that follow it. */
  starting_after?: string;
  /** A `prev_cursor` or `refresh_cursor`: the page of rows that precede it. */
  ending_before?: string;
  include_total?: boolean;
  /** A key of the list's `sorts`; the list's `defaultSort` when absent. */
  sort?: string;
  /** The list's `defaultOrder` when absent. */
  order?: SortOrder;
}

export interface Page<T> {
  data: T[];
  /** Null when no row follows the last one in `data`. */
  next_cursor: string | null;
  /** Null when no row precedes the first one in `data`; always null on a first page. */
  prev_cursor: string | null;
  /**
   * Passed later as `ending_before`, returns the rows that sort before the first row of `data`
   * (for a newest-first list: the rows created since). Non-null whenever `data` is non-empty, and
   * also on an empty first page, where it returns whatever rows the list holds later; null on an
   * empty page reached through a cursor (keep using the cursor you had).
   */
  refresh_cursor: string | null;
  /** Rows matching the list's filters, cursor ignored; only with `include_total`. */
  total?: number;
}

export interface SortSpec {
  /** SQL column or expression (trusted, never user input), e.g. `created_at` or `lower(name)`. */
  column: string;
  type: 'timestamptz' | 'text' | 'numeric';
  /**
   * The column may hold NULL. NULLs sort as Postgres sorts them by default (after every value in
   * ascending order, first in descending order) and pagination stays exact either way; declaring
   * it only keeps the NULL rows reachable from a cursor at a non-NULL value. Leave it off for NOT
   * NULL columns so the keyset condition is a plain row comparison an index serves.
   */
  nullable?: boolean;
}

export interface KeysetList {
  /** Table or join, trusted: `realtime.apps`. Also part of what cursors are bound to. */
  from: string;
  /** Column list, trusted: `id, name, created_at`. */
  select: string;
  /** The scoping condition (workspace, filters) with `$1..$n` placeholders; '' for none. */
  where: { sql: string; params: unknown[] };
  /**
   * What a cursor is bound to, as plain JSON values: the workspace id and every filter of the
   * request. A cursor made under other filters is rejected with E01012.
   */
  filters: Record<string, unknown>;
  /** The sorts a request may name, by the name it uses (`created_at`, `name`). */
  sorts: Record<string, SortSpec>;
  defaultSort: string;
  defaultOrder: SortOrder;
  /** A unique column breaking ties between equal sort values (`id`). */
  idColumn: string;
  /** Largest `limit` accepted; MAX_PAGE_LIMIT when absent. */
  maxLimit?: number;
}

/** The workspace API's envelope (`{results, nextPageToken}`); `pageToken` comes back as `starting_after`. */
export interface TokenPage<T> {
  results: T[];
  nextPageToken: string | null;
}

export function tokenPage<T>(page: Page<T>): TokenPage<T> {
  return { results: page.data, nextPageToken: page.next_cursor };
}
