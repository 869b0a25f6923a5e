import fc from 'fast-check';
import { carrierIdKeys } from './carrier-ids';

const overlap = (a: string[], b: string[]) => a.some((key) => b.includes(key));

describe(carrierIdKeys.name, () => {
  it('matches a hex id with its decimal form, both ways, ignoring case and leading zeros', () => {
    expect(overlap(carrierIdKeys('0A1B2C'), carrierIdKeys('662316'))).toBe(true);
    expect(overlap(carrierIdKeys('662316'), carrierIdKeys('a1b2c'))).toBe(true);
    expect(overlap(carrierIdKeys('000123'), carrierIdKeys('123'))).toBe(true);
    expect(overlap(carrierIdKeys('abc-123'), carrierIdKeys('ABC-123'))).toBe(true);
  });

  it('keeps non-numeric ids as they are', () => {
    expect(carrierIdKeys(' Msg-42 ')).toEqual(['msg-42']);
    expect(carrierIdKeys('0')).toContain('0');
  });

  it('matches any number written in hex with the same number in decimal', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 96n }), fc.nat(4), (value, zeros) => {
        const hex = '0'.repeat(zeros) + value.toString(16).toUpperCase();
        expect(overlap(carrierIdKeys(hex), carrierIdKeys(value.toString(10)))).toBe(true);
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (id) => void carrierIdKeys(id)));
  });
});
