/** Request and response shapes of every paginated list (spec: "Pagination"). */

export type SortOrder = 'asc' | 'desc';

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

/** A list with a choice of sorts and an optional name filter (realtime apps, sending domains). */
export interface SortedPageRequest<Sort extends string> extends PageRequest {
  /** Case-insensitive substring of the name. */
  name?: string;
  sort: Sort;
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

/** The workspace API's envelope (`{results, nextPageToken}`); `pageToken` comes back as `starting_after`. */
export interface TokenPage<T> {
  results: T[];
  nextPageToken: string | null;
}
