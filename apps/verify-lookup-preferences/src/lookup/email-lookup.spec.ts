import { parseEmailAddress, looksLikeDisplayNameOrList } from './email-address';
import { isDisposableDomain, isRoleMailbox, suggestedDomain } from './email-address-lists';
import { emailAnswer } from './email-lookup';

describe(emailAnswer.name, () => {
  const parts = (email: string) => {
    const parsed = parseEmailAddress(email);
    if (!parsed) throw new Error(`${email} did not parse`);
    return parsed;
  };

  it('flags a throwaway provider and any subdomain of one on the wildcard list', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('33mail.com')).toBe(true);
    expect(isDisposableDomain('shop.alias.33mail.com')).toBe(true);
    expect(isDisposableDomain('example.com')).toBe(false);
    expect(isDisposableDomain('not33mail.com')).toBe(false);
  });

  it('keeps the local part as sent and lowercases the domain', () => {
    expect(parseEmailAddress('Aisha.Khan@Example.COM')).toEqual({
      local: 'Aisha.Khan',
      domain: 'example.com',
    });
  });

  it.each([
    'plain',
    'a@b',
    'a@-x.com',
    'a..b@x.com',
    '.a@x.com',
    'a@x.c0m',
    `${'a'.repeat(65)}@x.com`,
    // What the URL host parser would repair into gmail.com or example.com.
    'ann@example%2ecom',
    'ann@gmail.com\n',
    'ann@gmail.com\t',
    'ann@gm\u200bail.com',
    // 220 characters as written, 274 once in its ASCII form (over 253).
    `a@${Array.from({ length: 8 }, () => `${'ü'.repeat(25)}x`).join('.')}.de`,
  ])('reads %j as malformed', (email) => expect(parseEmailAddress(email)).toBeUndefined());

  it('reads RFC 6531 local parts beyond ASCII, by octets, and no invisible or control ones', () => {
    expect(parseEmailAddress('δοκιμή@example.com')).toEqual({
      local: 'δοκιμή',
      domain: 'example.com',
    });
    expect(parseEmailAddress('用户@例子.广告')).toEqual({
      local: '用户',
      domain: 'xn--fsqu00a.xn--4rr70v',
    });
    expect(parseEmailAddress('😀.x@x.com')?.local).toBe('😀.x');
    // 64 octets at most: 32 two-octet letters, not 33.
    expect(parseEmailAddress(`${'ü'.repeat(32)}@x.com`)).toBeDefined();
    // Composed before it is measured: 32 e-acutes are 64 octets written either way.
    expect(parseEmailAddress(`${'e\u0301'.repeat(32)}@x.com`)).toBeDefined();
    const invisible = ['ann\u3164', 'a\uffa0', 'a\u2800', 'ann\u034f', 'ann\ufe0f', 'a\u17b4'];
    const marks = ['\u0301abc', 'a.\u0301', '\u0301'];
    for (const local of ['ü'.repeat(33), 'ann\u200b', 'a\u00a0b', 'a\u0085', '\ud800', 'a\ue000'])
      expect(parseEmailAddress(`${local}@x.com`)).toBeUndefined();
    for (const local of [...invisible, ...marks])
      expect(parseEmailAddress(`${local}@x.com`)).toBeUndefined();
    // The whole path is 254 octets at most: 64 for the local part leave 189 for the domain.
    const domain = (length: number) =>
      `${'d'.repeat(length - 187)}${`.${'d'.repeat(60)}`.repeat(3)}.com`;
    expect(parseEmailAddress(`${'ü'.repeat(32)}@${domain(189)}`)).toBeDefined();
    expect(parseEmailAddress(`${'ü'.repeat(32)}@${domain(190)}`)).toBeUndefined();
    expect(parseEmailAddress(`${'ü'.repeat(31)}@${domain(190)}`)).toBeDefined();
  });

  it('looks an internationalized domain up in its ASCII form', () => {
    expect(parseEmailAddress('jan@Müller.de')?.domain).toBe('xn--mller-kva.de');
    expect(parseEmailAddress('jan@bad domain.de')).toBeUndefined();
  });

  it('tells a display name or a list from a bare address', () => {
    expect(looksLikeDisplayNameOrList('Aisha <a@x.com>')).toBe(true);
    expect(looksLikeDisplayNameOrList('a@x.com, b@x.com')).toBe(true);
    expect(looksLikeDisplayNameOrList('a@x.com')).toBe(false);
  });

  it('suggests corrections one edit away from a provider, never for the provider itself', () => {
    expect(suggestedDomain('gmial.com')).toBe('gmail.com');
    expect(suggestedDomain('gmail.con')).toBe('gmail.com');
    expect(suggestedDomain('hotmial.com')).toBe('hotmail.com');
    expect(suggestedDomain('gmail.com')).toBeUndefined();
    expect(suggestedDomain('mail.com')).toBeUndefined();
    expect(suggestedDomain('acme.com')).toBeUndefined();
  });

  it('takes real domains near a provider as meant, and a slip in a short name only when DNS says no mail', () => {
    for (const real of ['aon.com', 'bol.com', 'email.com', 'cloud.com', 'hive.com', 'line.com'])
      expect({ real, suggested: suggestedDomain(real, false) }).toEqual({
        real,
        suggested: undefined,
      });
    // Taking mail, or DNS not answering: no claim about a short name.
    expect(suggestedDomain('aoll.com', false)).toBeUndefined();
    expect(suggestedDomain('aoll.com', true)).toBe('aol.com');
    expect(suggestedDomain('aol.con', false)).toBe('aol.com');
    // A misspelt long name is registered to catch mail: still a typo.
    expect(suggestedDomain('gmial.com', false)).toBe('gmail.com');
  });

  it('reads role mailboxes case-insensitively, ignoring a +tag and word separators', () => {
    expect(isRoleMailbox('Support+eu')).toBe(true);
    for (const local of [
      'no-reply',
      'no_reply',
      'No.Reply',
      'do-not-reply',
      'DoNotReply',
      'mailer-daemon',
      'bounces',
    ])
      expect(isRoleMailbox(local)).toBe(true);
    expect(isRoleMailbox('aisha')).toBe(false);
    expect(isRoleMailbox('aisha.khan')).toBe(false);
  });

  it('grades by mail hosts, then flags', () => {
    expect(emailAnswer('a@x.com', parts('a@x.com'), 'refuses')).toMatchObject({
      valid: false,
      result: 'undeliverable',
      reason: 'invalid_domain',
    });
    expect(emailAnswer('a@x.com', parts('a@x.com'), 'unknown')).toEqual({
      email: 'a@x.com',
      valid: false,
      result: 'neutral',
      delivery_confidence: 40,
      flags: [],
    });
    // Every server on the way must speak SMTPUTF8.
    expect(emailAnswer('δοκιμή@x.com', parts('δοκιμή@x.com'), 'accepts')).toMatchObject({
      valid: true,
      result: 'risky',
      delivery_confidence: 45,
    });
    expect(emailAnswer('info@gmail.com', parts('info@gmail.com'), 'accepts')).toMatchObject({
      valid: true,
      result: 'risky',
      flags: ['role', 'free_provider'],
    });
  });
});
