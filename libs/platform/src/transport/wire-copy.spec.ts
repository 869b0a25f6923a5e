import fc from 'fast-check';
import { wireCopy } from './wire-copy';

const overJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** Strict structural equality that also tells -0 from 0 and an own `__proto__` from a prototype. */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  if (typeof expected === 'object' && expected !== null) {
    expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
    expect(Object.keys(actual as object)).toEqual(Object.keys(expected));
  }
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe(wireCopy.name, () => {
  it('equals the JSON round trip for any JSON-like value (property)', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withNullPrototype: true,
          withObjectString: true,
          withSparseArray: true,
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withBigInt: false,
        }),
        (value) => {
          if (value === undefined) return expect(wireCopy(value)).toBeUndefined();
          let expected: unknown;
          try {
            expected = overJson(value);
          } catch (err) {
            expect(() => wireCopy(value)).toThrow((err as Error).constructor as never);
            return;
          }
          expectSame(wireCopy(value), expected);
        },
      ),
      { numRuns: 2000, seed: 20261123 },
    );
  });

  it('copies the values JSON rewrites as JSON does', () => {
    const value = {
      nan: NaN,
      infinite: -Infinity,
      negativeZero: -0,
      missing: undefined,
      fn: () => 1,
      list: [undefined, () => 1, Symbol('s'), NaN, 1],
      [Symbol('hidden')]: 1,
    };
    expectSame(wireCopy(value), overJson(value));
    expect(Object.is((wireCopy({ z: -0 }) as { z: number }).z, 0)).toBe(true);
  });

  it('sends dates, class instances, maps and toJSON through JSON', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const value = {
      at,
      point: new Point(1, 2),
      map: new Map([['a', 1]]),
      custom: { toJSON: () => 'custom' },
    };
    expectSame(wireCopy(value), overJson(value));
    expect((wireCopy({ at }) as { at: unknown }).at).toBe('2026-01-02T03:04:05.678Z');
  });

  it('keeps a __proto__ key an own property, as JSON.parse does', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<
      string,
      unknown
    >;
    const copied = wireCopy(value) as Record<string, unknown>;
    expectSame(copied, overJson(value));
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shares no object with the original', () => {
    const value = { app: { id: 'rap_1', tags: ['a'] }, list: [{ n: 1 }] };
    const copied = wireCopy(value) as typeof value;
    expect(copied).toEqual(value);
    expect(copied).not.toBe(value);
    expect(copied.app).not.toBe(value.app);
    expect(copied.app.tags).not.toBe(value.app.tags);
    expect(copied.list[0]).not.toBe(value.list[0]);
  });

  it('throws what JSON throws for a cycle or a bigint', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(() => wireCopy(cycle)).toThrow(TypeError);
    expect(() => wireCopy({ n: 1n })).toThrow(TypeError);
  });

  it('copies nesting deeper than its own limit through JSON', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i++) deep = i % 2 ? { next: deep } : [deep];
    expectSame(wireCopy(deep), overJson(deep));
  });

  it('leaves undefined undefined', () => {
    expect(wireCopy(undefined)).toBeUndefined();
  });
});
