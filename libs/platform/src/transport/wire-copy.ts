/** Thrown inside the copy when a value needs JSON's own rules; caught by `wireCopy`. Made once. */
const NEEDS_JSON = new Error('this value is copied through JSON');
/** Deeper than this is a cycle or an unusual payload: JSON decides (and names a cycle). */
const MAX_DEPTH = 64;

/**
 * What a payload becomes after a trip over the wire: always equal to
 * `JSON.parse(JSON.stringify(value))` (and `undefined` for `undefined`), so a handler in the
 * embedded default sees exactly what it would see over NATS and shares no mutable object with
 * its caller. Plain objects, arrays, strings, finite numbers, booleans and null, which is what
 * payloads are, are copied directly, several times faster than the JSON round trip; anything else
 * (a Date, a class instance, a Map, `toJSON`, a bigint, a `__proto__` key, a cycle) sends the
 * whole value through JSON instead.
 */
export function wireCopy(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return copy(value, 0);
  } catch (err) {
    if (err !== NEEDS_JSON) throw err;
    return JSON.parse(JSON.stringify(value)) as unknown;
  }
}

function copy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON writes NaN and the infinities as null, and -0 as 0.
      return Number.isFinite(value) ? value + 0 : null;
    case 'object':
      if (value === null) return null;
      if (depth >= MAX_DEPTH) throw NEEDS_JSON;
      return Array.isArray(value)
        ? copyArray(value as unknown[], depth + 1)
        : copyObject(value as Record<string, unknown>, depth + 1);
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      // undefined, a function or a symbol on its own; a bigint (JSON throws).
      throw NEEDS_JSON;
  }
}

function copyArray(array: unknown[], depth: number): unknown[] {
  if (Object.getPrototypeOf(array) !== Array.prototype) throw NEEDS_JSON;
  const out = new Array<unknown>(array.length);
  for (let i = 0; i < array.length; i++) {
    const item = array[i];
    // JSON writes undefined, functions and symbols (and holes) in an array as null.
    out[i] =
      item === undefined || typeof item === 'function' || typeof item === 'symbol'
        ? null
        : copy(item, depth);
  }
  return out;
}

function copyObject(object: Record<string, unknown>, depth: number): Record<string, unknown> {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if (prototype !== Object.prototype && prototype !== null) throw NEEDS_JSON;
  if (typeof object.toJSON === 'function') throw NEEDS_JSON;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    // JSON.parse makes `__proto__` an own property; an assignment would set the prototype.
    if (key === '__proto__') throw NEEDS_JSON;
    const item = object[key];
    // JSON leaves out members that are undefined, functions or symbols.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    out[key] = copy(item, depth);
  }
  return out;
}
