import fc from 'fast-check';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { Passcodes } from './passcodes';
import type { VerificationRow } from './verifications.repository';
import {
  codeLengthOf,
  languageOf,
  metadataOf,
  derivePasscode,
  newPasscodeSeed,
  passcodeHash,
  passcodeMatch,
  planOf,
  recipientOf,
} from './verification-rules';

const key = Buffer.alloc(32, 7);

describe(recipientOf.name, () => {
  it('lowercases the email and keys the recipient by both addresses', () => {
    expect(recipientOf({ email: ' Ann@Example.COM ', phone_number: '+31612345678' })).toEqual({
      email: 'ann@example.com',
      phoneNumber: '+31612345678',
      key: 'ann@example.com|+31612345678',
    });
    expect(recipientOf({ phone_number: '+31612345678' }).key).toBe('|+31612345678');
  });

  it('refuses a number that is not E.164, a bad address and an empty `to`, naming the field', () => {
    for (const [to, param] of [
      [{ phone_number: '0612345678' }, 'to.phone_number'],
      [{ phone_number: '+31 6 1234 5678' }, 'to.phone_number'],
      [{ email: 'nobody' }, 'to.email'],
      [{ email: 'a@b.c\u0000' }, 'to.email'],
      [{}, 'to'],
    ] as const)
      expect(() => recipientOf(to)).toThrow(
        expect.objectContaining({ details: [expect.objectContaining({ param })] }),
      );
  });

  it('never throws anything but a validation error, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (to) => {
        try {
          recipientOf(to);
        } catch (err) {
          expect((err as { code: string }).code).toBe('E01001');
        }
      }),
    );
  });
});

describe(planOf.name, () => {
  const phone = recipientOf({ phone_number: '+31612345678' });
  const both = recipientOf({ phone_number: '+31612345678', email: 'a@example.com' });

  it('tries the phone channels first, then email', () => {
    expect(planOf(phone)).toEqual(['sms', 'whatsapp']);
    expect(planOf(both)).toEqual(['sms', 'whatsapp', 'email']);
  });

  it('reorders and narrows by options.channels, ignoring channels not enabled', () => {
    expect(planOf(both, ['email', 'telegram', 'sms', 'email'])).toEqual(['email', 'sms']);
  });

  it('refuses a list that leaves no usable channel (NoUsableChannel)', () => {
    expect(() => planOf(phone, ['email', 'voice'])).toThrow(
      expect.objectContaining({ code: 'E01115' }),
    );
  });
});

describe(languageOf.name, () => {
  it("takes the language asked for, else the phone number's country's, else English", () => {
    expect(languageOf('fr', '+31612345678')).toBe('fr');
    expect(languageOf(undefined, '+31612345678')).toBe('nl');
    expect(languageOf(undefined, '+33612345678')).toBe('fr');
    expect(languageOf(undefined, '+15551234567')).toBe('en');
    expect(languageOf(undefined, null)).toBe('en');
  });
});

describe(passcodeMatch.name, () => {
  it('matches any kept passcode of its verification, and nothing else', () => {
    const hashes = [passcodeHash(key, 'vrf_1', '123456'), passcodeHash(key, 'vrf_1', '654321')];
    expect(passcodeMatch(key, 'vrf_1', '654321', hashes)).toBe(1);
    expect(passcodeMatch(key, 'vrf_1', '123456', hashes)).toBe(0);
    expect(passcodeMatch(key, 'vrf_1', '123457', hashes)).toBe(-1);
    // The same code of another verification, or under another key, is another hash.
    expect(passcodeMatch(key, 'vrf_2', '123456', hashes)).toBe(-1);
    expect(passcodeMatch(Buffer.alloc(32, 8), 'vrf_1', '123456', hashes)).toBe(-1);
  });

  it('keeps a hash that does not reveal the code', () => {
    expect(passcodeHash(key, 'vrf_1', '123456').toString('hex')).not.toContain('123456');
  });
});

describe(derivePasscode.name, () => {
  it('makes digits of the asked length, spread over all ten digits, the same for the same seed', () => {
    const codes = Array.from({ length: 300 }, () =>
      derivePasscode(key, 'vrf_1', newPasscodeSeed(), 8),
    );
    expect(codes.every((code) => /^\d{8}$/.test(code))).toBe(true);
    expect(new Set(codes.join('')).size).toBe(10);
    expect(new Set(codes).size).toBe(300);
    const seed = newPasscodeSeed();
    expect(derivePasscode(key, 'vrf_1', seed, 6)).toBe(derivePasscode(key, 'vrf_1', seed, 6));
    expect(derivePasscode(key, 'vrf_1', seed, 6)).not.toBe(derivePasscode(key, 'vrf_2', seed, 6));
  });

  it('keeps leading zeros', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 4, max: 10 }), (seed, length) => {
        expect(derivePasscode(key, 'vrf_1', seed, length)).toHaveLength(length);
      }),
    );
  });
});

describe(codeLengthOf.name, () => {
  it('takes 4 to 10 digits, else the configured length', () => {
    expect(codeLengthOf(undefined, 6)).toBe(6);
    expect(codeLengthOf({ code_length: 4 }, 6)).toBe(4);
    for (const code_length of [3, 11, 5.5])
      expect(() => codeLengthOf({ code_length }, 6)).toThrow(
        expect.objectContaining({ code: 'E01001' }),
      );
  });
});

describe(metadataOf.name, () => {
  it('keeps an object up to 4 KB and refuses anything else', () => {
    expect(metadataOf({ a: 1 })).toEqual({ a: 1 });
    expect(metadataOf(undefined)).toBeNull();
    for (const metadata of [[1], 'x', { big: 'x'.repeat(5000) }])
      expect(() => metadataOf(metadata)).toThrow(expect.objectContaining({ code: 'E01001' }));
  });
});

describe(Passcodes.name, () => {
  const passcodes = (recipients: string[], code?: string) =>
    new Passcodes({
      ENCRYPTION_KEY: 'a key for the passcodes spec 0123456789',
      VERIFY_TEST_RECIPIENTS: recipients,
      VERIFY_TEST_CODE: code,
    } as unknown as VerifyLookupPreferencesConfig);
  const row = (workspace_id: string) =>
    ({ id: 'vrf_1', workspace_id, code_length: 6 }) as unknown as VerificationRow;

  it('gives a test recipient the test code in its own workspace only, unless listed for all', () => {
    const codes = passcodes(['ws_a:+31612345678', '*:Reviewer@Example.com'], '424242');
    expect(codes.passcodeOf(row('ws_a'), '+31612345678', 'seed')).toBe('424242');
    expect(codes.passcodeOf(row('ws_b'), '+31612345678', 'seed')).not.toBe('424242');
    expect(codes.passcodeOf(row('ws_b'), 'reviewer@example.com', 'seed')).toBe('424242');
  });

  it('refuses test recipients without a test code', () => {
    expect(() => passcodes(['ws_a:+31612345678'])).toThrow(/VERIFY_TEST_CODE/);
  });
});
