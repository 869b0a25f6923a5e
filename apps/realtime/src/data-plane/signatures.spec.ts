import { authFor, authMatches, signedString } from './signatures';

describe('realtime signatures', () => {
  it('signs private, presence and sign-in strings as contract section 5 says', () => {
    expect(signedString('1.2', { channel: 'private-a' })).toBe('1.2:private-a');
    expect(signedString('1.2', { channel: 'presence-a', memberData: '{"member_id":"u"}' })).toBe(
      '1.2:presence-a:{"member_id":"u"}',
    );
    expect(signedString('1.2', { signinMemberData: '{"member_id":"u"}' })).toBe(
      '1.2::member::{"member_id":"u"}',
    );
  });

  it('accepts the right signature and refuses another key, secret, string or shape', () => {
    const auth = authFor('rak_1', 's3cret', '1.2:private-a');
    expect(auth).toMatch(/^rak_1:[0-9a-f]{64}$/);
    expect(authMatches(auth, 'rak_1', 's3cret', '1.2:private-a')).toBe(true);
    expect(authMatches(auth, 'rak_2', 's3cret', '1.2:private-a')).toBe(false);
    expect(authMatches(auth, 'rak_1', 'other', '1.2:private-a')).toBe(false);
    expect(authMatches(auth, 'rak_1', 's3cret', '1.2:private-b')).toBe(false);
    expect(authMatches(42, 'rak_1', 's3cret', '1.2:private-a')).toBe(false);
  });
});
