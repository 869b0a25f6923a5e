import { rowsOf } from '@switchboard/persistence';

/**
 * The rows a RETURNING statement gave back, whatever ran it: TypeORM resolves to the rows (or
 * `[rows, count]`), a pg Pool or client to a result object with `rows`.
 */
export function returnedRows<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(result) && Array.isArray(rows)) return rows as T[];
  return rowsOf<T>(result);
}
