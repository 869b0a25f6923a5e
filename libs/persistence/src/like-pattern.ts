/** `value` with `%`, `_` and `\` escaped, so it matches itself inside a LIKE or ILIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}
