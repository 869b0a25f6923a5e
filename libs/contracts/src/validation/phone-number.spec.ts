import { phoneNumber, routablePhoneNumber } from './phone-number';

describe(phoneNumber.name, () => {
  it('takes international numbers with punctuation and refuses what is not a number', () => {
    expect(phoneNumber('+31 6 1234 5678')).toBe('+31612345678');
    expect(phoneNumber('0031612345678')).toBeUndefined();
    expect(phoneNumber('call me')).toBeUndefined();
    expect(phoneNumber('+1')).toBeUndefined();
  });
});

describe(routablePhoneNumber.name, () => {
  it('takes only numbers of a length their country code allows', () => {
    expect(routablePhoneNumber('+31 6 1234 5678')).toBe('+31612345678');
    expect(routablePhoneNumber('14155550100')).toBe('+14155550100');
    expect(phoneNumber('+12345')).toBe('+12345');
    expect(routablePhoneNumber('+12345')).toBeUndefined();
    // A US number without its country code reads as Swiss, and is too short for Switzerland.
    expect(routablePhoneNumber('4155550100')).toBeUndefined();
    expect(routablePhoneNumber('call me')).toBeUndefined();
  });
});
