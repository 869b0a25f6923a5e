import { AppError } from '@switchboard/platform';
import fc from 'fast-check';
import { lookUpPhoneNumber } from './phone-number-lookup';

describe(lookUpPhoneNumber.name, () => {
  it('reads +, bare and 00 international forms as one number', () => {
    for (const phone_number of [
      '+31612345678',
      '31612345678',
      '0031612345678',
      '+31 (6) 1234-5678',
    ]) {
      expect(lookUpPhoneNumber({ phone_number })).toEqual({
        phone_number: '+31612345678',
        country_code: 'NL',
        flags: [],
        line_type: 'mobile',
      });
    }
  });

  it('answers an allocated but unclassified range as unknown, inconclusive when classified', () => {
    const answer = lookUpPhoneNumber({ phone_number: '+31112345678', type: ['classification'] });
    expect(answer.line_type).toBe('unknown');
    expect(answer.classification).toEqual({ status: 'inconclusive' });
  });

  it('throws only AppErrors on any input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (phone_number) => {
        try {
          lookUpPhoneNumber({ phone_number });
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
        }
      }),
    );
  });
});
