import fc from 'fast-check';
import { mergedData, readContact } from './contact-input';
import type { PropertyCatalog } from './contact-input';

const properties: PropertyCatalog = new Map([
  ['plan', { type: 'string', archived: false }],
  ['seats', { type: 'number', archived: false }],
  ['legacy', { type: 'string', archived: true }],
]);

describe(readContact.name, () => {
  it('normalizes: email trimmed and lowercased, phone punctuation stripped to E.164', () => {
    const { input, problems } = readContact(
      { email: ' Ada@Example.COM ', phone_number: '+1 (415) 555-0100' },
      'create',
      properties,
    );
    expect(problems).toEqual([]);
    expect(input).toEqual({ email: 'ada@example.com', phone_number: '+14155550100' });
  });

  it('treats "" as an omitted phone on create and as a removal on update', () => {
    expect(readContact({ phone_number: '' }, 'create', properties).input).toEqual({});
    expect(readContact({ phone_number: '' }, 'update', properties).input).toEqual({
      phone_number: null,
    });
  });

  it('names every problem: unknown fields, wrong types, unknown and archived keys', () => {
    const { problems } = readContact(
      { email: 3, nickname: 'x', data: { plan: 1, legacy: 'x', nope: true } },
      'create',
      properties,
      'contacts[4].',
    );
    expect(problems.map((p) => p.param).sort()).toEqual([
      'contacts[4].data.legacy',
      'contacts[4].data.nope',
      'contacts[4].data.plan',
      'contacts[4].email',
      'contacts[4].nickname',
    ]);
  });

  it('ignores null data values on create, keeps them as removals in batch entries and updates', () => {
    expect(readContact({ data: { plan: null } }, 'create', properties).input.data).toEqual({});
    expect(readContact({ data: { plan: null } }, 'entry', properties).input.data).toEqual({
      plan: null,
    });
    expect(mergedData({ plan: 'pro', seats: 2 }, { plan: null, seats: 3 })).toEqual({ seats: 3 });
    expect(mergedData({ plan: 'pro', seats: 2 }, { seats: 3 }, true)).toEqual({ seats: 3 });
  });

  it('never throws, and whatever it accepts is in normal form (generated input)', () => {
    const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
    const text = fc.oneof(fc.string({ unit: anyCodeUnit, maxLength: 40 }), fc.emailAddress());
    const value = fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(
        fc.record(
          {
            email: value,
            phone_number: value,
            first_name: value,
            data: fc.dictionary(text, value),
          },
          { requiredKeys: [] },
        ),
        fc.constantFrom('create' as const, 'entry' as const, 'update' as const),
        (raw, mode) => {
          const { input } = readContact(raw, mode, properties);
          if (typeof input.email === 'string')
            expect(input.email).toBe(input.email.trim().toLowerCase());
          if (typeof input.phone_number === 'string')
            expect(input.phone_number).toMatch(/^\+\d{4,15}$/);
        },
      ),
      { seed: 20261124, numRuns: 500 },
    );
  });
});
