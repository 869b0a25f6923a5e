/** Request and response shapes of every paginated list (spec: "Pagination"). */
import type { Page, SortOrder, TokenPage } from '@switchboard/contracts';

export type { Page, PageRequest, SortOrder, TokenPage } from '@switchboard/contracts';

/** Largest `limit` a list accepts unless it sets its own `maxLimit`. */
export const MAX_PAGE_LIMIT = 100;

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

export function tokenPage<T>(page: Page<T>): TokenPage<T> {
  return { results: page.data, nextPageToken: page.next_cursor };
}
