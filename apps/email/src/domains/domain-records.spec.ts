import {
  dmarcCandidates,
  normalizeDomainName,
  normalizeReturnPathName,
  relativeName,
} from './domain-name';
import {
  applyVerification,
  buildRecords,
  matchDkim,
  matchDmarc,
  matchSpf,
  returnPathRecord,
  spfMechanism,
} from './domain-records';
import type { RecordOutcome, StoredDnsRecord, TxtAnswer } from './domain-records';

const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + 'x'.repeat(340) + 'IDAQAB';
const records = (...texts: string[]): TxtAnswer => ({ kind: 'records', records: texts });
const NONE: TxtAnswer = { kind: 'none' };
const SERVFAIL: TxtAnswer = { kind: 'error', code: 'ESERVFAIL' };

describe('normalizeDomainName', () => {
  it('trims, lowercases and drops a trailing dot', () => {
    expect(normalizeDomainName('  Mail.Example.COM. ')).toEqual({
      ok: true,
      value: 'mail.example.com',
    });
  });

  it('stores an internationalised name in its ASCII form', () => {
    expect(normalizeDomainName('mail.bücher.de')).toEqual({
      ok: true,
      value: 'mail.xn--bcher-kva.de',
    });
  });

  it.each([
    ['', 'blank'],
    ['localhost', 'two labels'],
    ['192.168.1.10', 'IP address'],
    ['[::1]', 'IP address'],
    ['2001:db8::1', 'IP address'],
    ['https://example.com', 'bare domain'],
    ['user@example.com', 'bare domain'],
    ['mail..example.com', 'empty labels'],
    ['-mail.example.com', 'not valid'],
    ['mail_1.example.com', 'not valid'],
    ['mail.example.123', 'top-level'],
    [`${'a'.repeat(64)}.example.com`, 'not valid'],
    [`${'abcdefghi.'.repeat(25)}example.com`, '253'],
  ])('refuses %j (%s)', (input, reason) => {
    const result = normalizeDomainName(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(reason);
  });

  it('checks the return-path label and the resulting host length', () => {
    expect(normalizeReturnPathName('Bounces', 'example.com')).toEqual({
      ok: true,
      value: 'bounces',
    });
    expect(normalizeReturnPathName('a.b', 'example.com').ok).toBe(false);
    expect(normalizeReturnPathName('x'.repeat(60), `${'a'.repeat(60)}.`.repeat(4) + 'com').ok).toBe(
      false,
    );
  });
});

describe('buildRecords', () => {
  const built = buildRecords({
    domain: 'mail.acme.com',
    selector: 'sb1abcde',
    publicKey: KEY,
    returnPathName: 'send',
    spfMechanism: spfMechanism('mta.example.net'),
  });

  it('lists the DKIM key, the return path SPF and a DMARC policy, all required and pending', () => {
    expect(
      built.map(({ purpose, type, host, name, value }) => ({ purpose, type, host, name, value })),
    ).toEqual([
      {
        purpose: 'dkim',
        type: 'TXT',
        host: 'sb1abcde._domainkey.mail.acme.com',
        name: 'sb1abcde._domainkey.mail',
        value: `v=DKIM1; k=rsa; p=${KEY}`,
      },
      {
        purpose: 'return_path',
        type: 'TXT',
        host: 'send.mail.acme.com',
        name: 'send.mail',
        value: 'v=spf1 a:mta.example.net ~all',
      },
      {
        purpose: 'dmarc',
        type: 'TXT',
        host: '_dmarc.mail.acme.com',
        name: '_dmarc.mail',
        value: 'v=DMARC1; p=none;',
      },
    ]);
    for (const record of built) {
      expect(record).toMatchObject({
        state: 'active',
        optional: false,
        status: 'pending',
        error: null,
      });
    }
  });

  it('writes names relative to the registered domain, three labels under co.uk', () => {
    expect(relativeName('_dmarc.mail.acme.co.uk', 'mail.acme.co.uk')).toBe('_dmarc.mail');
    expect(relativeName('_dmarc.acme.com', 'acme.com')).toBe('_dmarc');
    expect(relativeName('acme.com', 'acme.com')).toBe('@');
  });

  it('authorises an IP literal EHLO name by address', () => {
    expect(spfMechanism('203.0.113.5')).toBe('ip4:203.0.113.5');
    expect(spfMechanism('[2001:db8::5]')).toBe('ip6:2001:db8::5');
  });
});

describe('matchDkim', () => {
  const host = 'sb1._domainkey.mail.acme.com';
  const expected = `v=DKIM1; k=rsa; p=${KEY}`;

  it('matches the key, whatever the spacing inside p= and the other tags', () => {
    const spaced = `v=DKIM1;k=rsa; t=s; p=${KEY.slice(0, 100)} ${KEY.slice(100)}`;
    expect(matchDkim(host, records('something else', spaced), expected)).toEqual({
      check: 'match',
      detail: null,
    });
  });

  it('fails another key, naming what it found', () => {
    const outcome = matchDkim(
      host,
      records(`v=DKIM1; k=rsa; p=MIIBOTHERKEY${'y'.repeat(50)}`),
      expected,
    );
    expect(outcome.check).toBe('mismatch');
    expect(outcome.detail).toContain('another public key (p=MIIBOTHERKEY');
  });

  it('fails a revoked key and a TXT that is no DKIM record', () => {
    expect(matchDkim(host, records('v=DKIM1; p='), expected).detail).toContain('empty p=');
    expect(matchDkim(host, records('google-site-verification=abc'), expected).detail).toContain(
      'not a DKIM key',
    );
  });

  it('says missing when nothing is published, temporary when DNS did not answer', () => {
    expect(matchDkim(host, NONE, expected)).toEqual({
      check: 'missing',
      detail: `no DKIM TXT record found at ${host}`,
    });
    const outcome = matchDkim(host, SERVFAIL, expected);
    expect(outcome.check).toBe('temporary');
    expect(outcome.detail).toContain('ESERVFAIL');
  });
});

describe('matchSpf', () => {
  const host = 'send.mail.acme.com';
  const expected = 'v=spf1 a:mta.example.net ~all';

  it('accepts the record with other mechanisms beside ours', () => {
    expect(
      matchSpf(host, records('v=spf1 include:relay.example.org A:mta.example.net -all'), expected)
        .check,
    ).toBe('match');
  });

  it('refuses a record without our mechanism, two SPF records and +all', () => {
    expect(matchSpf(host, records('v=spf1 mx ~all'), expected).detail).toContain(
      'lacks a:mta.example.net',
    );
    expect(matchSpf(host, records(expected, 'v=spf1 mx -all'), expected).detail).toContain(
      '2 SPF records',
    );
    expect(matchSpf(host, records('v=spf1 a:mta.example.net +all'), expected).detail).toContain(
      '+all',
    );
  });

  it('treats TXT records without v=spf1 as missing SPF', () => {
    const outcome = matchSpf(host, records('hello'), expected);
    expect(outcome.check).toBe('missing');
    expect(outcome.detail).toContain('found only "hello"');
  });
});

describe('matchDmarc', () => {
  const candidates = dmarcCandidates('mail.acme.com');

  it('walks from the domain up to its parents, not to the top level', () => {
    expect(candidates).toEqual(['mail.acme.com', 'acme.com']);
  });

  it('accepts any valid policy, on the domain or a parent', () => {
    expect(matchDmarc(candidates, [records('v=DMARC1; p=reject; rua=mailto:d@acme.com')])).toEqual({
      check: 'match',
      detail: null,
      foundAt: 'mail.acme.com',
    });
    expect(matchDmarc(candidates, [NONE, records('v=DMARC1;p=quarantine')])).toMatchObject({
      check: 'match',
      foundAt: 'acme.com',
    });
  });

  it('fails a record without a valid p=, and two records', () => {
    expect(matchDmarc(candidates, [records('v=DMARC1; p=maybe')]).check).toBe('mismatch');
    expect(matchDmarc(candidates, [records('v=DMARC1; p=none', 'v=DMARC1; p=reject')]).check).toBe(
      'mismatch',
    );
  });

  it('is missing when no level has one, temporary when a level did not answer', () => {
    expect(matchDmarc(candidates, [NONE, NONE]).check).toBe('missing');
    expect(matchDmarc(candidates, [NONE, SERVFAIL]).check).toBe('temporary');
  });
});

describe('applyVerification', () => {
  const base = buildRecords({
    domain: 'mail.acme.com',
    selector: 'sb1',
    publicKey: KEY,
    returnPathName: 'send',
    spfMechanism: 'a:mta.example.net',
  });
  const outcomesOf = (list: StoredDnsRecord[], checks: Array<RecordOutcome['check']>) =>
    new Map(
      list.map((record, i) => [
        record,
        { check: checks[i], detail: checks[i] === 'match' ? null : `${checks[i]} detail` },
      ]),
    );

  it('verifies the domain once all three match', () => {
    const result = applyVerification(
      base,
      outcomesOf(base, ['match', 'match', 'match']),
      'pending',
    );
    expect(result.status).toBe('verified');
    expect(result.records.map((r) => r.status)).toEqual(['verified', 'verified', 'verified']);
    expect(result.failureReason).toBeNull();
  });

  it('fails it when one is missing or wrong, with each failing record as the reason', () => {
    const result = applyVerification(
      base,
      outcomesOf(base, ['match', 'missing', 'temporary']),
      'pending',
    );
    expect(result.status).toBe('failed');
    expect(result.records[1]).toMatchObject({ status: 'failed', error: 'missing detail' });
    expect(result.failureReason).toBe('return_path: missing detail');
  });

  it('is a temporary failure, not a failure, when DNS did not answer', () => {
    const result = applyVerification(
      base,
      outcomesOf(base, ['match', 'temporary', 'match']),
      'pending',
    );
    expect(result.status).toBe('temporary_failure');
    expect(result.records[1]).toMatchObject({ status: 'pending', error: 'temporary detail' });
  });

  it('keeps a verified domain verified through a DNS outage, but not through a wrong record', () => {
    const verified = applyVerification(
      base,
      outcomesOf(base, ['match', 'match', 'match']),
      'pending',
    ).records;
    const outage = applyVerification(
      verified,
      outcomesOf(verified, ['temporary', 'temporary', 'temporary']),
      'verified',
    );
    expect(outage.status).toBe('verified');
    expect(outage.records.map((r) => r.status)).toEqual(['verified', 'verified', 'verified']);
    const broken = applyVerification(
      verified,
      outcomesOf(verified, ['mismatch', 'match', 'match']),
      'verified',
    );
    expect(broken.status).toBe('failed');
  });

  it('promotes a staged return path once it matches and deprecates the old one', () => {
    const verified = applyVerification(
      base,
      outcomesOf(base, ['match', 'match', 'match']),
      'pending',
    ).records;
    const staged = [
      ...verified,
      returnPathRecord('mail.acme.com', 'bounce', 'a:mta.example.net', 'pending'),
    ];
    const result = applyVerification(
      staged,
      outcomesOf(staged, ['match', 'match', 'match', 'match']),
      'verified',
    );
    expect(result.returnPathName).toBe('bounce');
    expect(result.status).toBe('verified');
    expect(
      result.records
        .filter((r) => r.purpose === 'return_path')
        .map((r) => [r.host, r.state, r.safe_to_remove]),
    ).toEqual([
      ['send.mail.acme.com', 'deprecated', true],
      ['bounce.mail.acme.com', 'active', null],
    ]);
  });
});
