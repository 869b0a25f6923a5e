/** NUL, or a UTF-16 surrogate without its pair: text PostgreSQL cannot store (text or jsonb). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** A value met on the walk; a key's node carries the key, an item's its index. */
interface Visit {
  value: unknown;
  parent?: Visit;
  key?: string;
  index?: number;
}

/** Paths longer than this are cut: a body nested thousands deep would name itself at length. */
const PATH_LIMIT = 200;

/**
 * The path (`to[0].email`, or a key's own path) of the first string or object key in `value` that
 * PostgreSQL could not store, or undefined when there is none. Walks with a stack of its own, so
 * a body nested deeper than the call stack (valid JSON within the size limit) is walked too and
 * left for validation to refuse.
 */
export function findUnstorableText(value: unknown): string | undefined {
  const stack: Visit[] = [{ value }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    if (visit.key !== undefined && !isStorableText(visit.key)) return pathOf(visit);
    const current = visit.value;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return pathOf(visit) || 'body';
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    // Pushed last first, so the walk meets them in order.
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push({ value: current[index] as unknown, parent: visit, index });
    } else {
      const entries = Object.entries(current);
      for (let at = entries.length - 1; at >= 0; at--)
        stack.push({ value: entries[at][1], parent: visit, key: entries[at][0] });
    }
  }
  return undefined;
}

function pathOf(visit: Visit): string {
  const segments: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent)
    segments.push(at.key !== undefined ? at.key : `[${at.index}]`);
  let path = '';
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    path += segment.startsWith('[') || path === '' ? segment : `.${segment}`;
    if (path.length > PATH_LIMIT) return `${path.slice(0, PATH_LIMIT)}…`;
  }
  return path;
}
