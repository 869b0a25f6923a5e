/** `value` with `%`, `_` and `\` escaped, so it matches itself inside a LIKE or ILIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * `value` as a SQL string literal (quotes doubled; `standard_conforming_strings` on), for SQL
 * rendered ahead of time, such as a function body a migration freezes. Never for request values:
 * those are parameters.
 */
export function sqlLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
