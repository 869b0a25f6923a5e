import { phoneNumber } from './phone-number';

describe(phoneNumber.name, () => {
  it('takes international numbers with punctuation and refuses what is not a number', () => {
    expect(phoneNumber('+31 6 1234 5678')).toBe('+31612345678');
    expect(phoneNumber('0031612345678')).toBeUndefined();
    expect(phoneNumber('call me')).toBeUndefined();
    expect(phoneNumber('+1')).toBeUndefined();
  });
});
