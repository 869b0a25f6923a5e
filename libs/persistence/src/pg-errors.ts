/** Postgres SQLSTATE codes the services branch on. */
const PgErrorCodes = {
  UniqueViolation: '23505',
  SerializationFailure: '40001',
  UndefinedTable: '42P01',
} as const;

function pgErrorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const candidate = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = candidate.driverError?.code ?? candidate.code;
  return typeof code === 'string' ? code : undefined;
}

export function isUniqueViolation(err: unknown): boolean {
  return pgErrorCode(err) === PgErrorCodes.UniqueViolation;
}

/**
 * The rows of a raw query. TypeORM's Postgres driver answers UPDATE and DELETE with
 * `[rows, affectedCount]` and everything else with the rows.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  )
    return result[0] as T[];
  return result as T[];
}
