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
  matchReturnPath,
  RECORD_TYPES,
  returnPathRecord,
} from './domain-records';
import type { CnameAnswer, RecordOutcome, StoredDnsRecord, TxtAnswer } from './domain-records';

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
    returnPathTarget: 'rp.switchboard.example',
  });

  it('lists the DKIM key, the return-path CNAME and a DMARC policy, all required and pending', () => {
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
        type: 'CNAME',
        host: 'send.mail.acme.com',
        name: 'send.mail',
        value: 'rp.switchboard.example',
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

  it('gives each purpose the record type the SDK documents', () => {
    expect(RECORD_TYPES).toEqual({
      dkim: 'TXT',
      dmarc: 'TXT',
      return_path: 'CNAME',
      tracking: 'CNAME',
      inbound_mx: 'MX',
    });
    for (const record of built) expect(record.type).toBe(RECORD_TYPES[record.purpose]);
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

describe('matchReturnPath', () => {
  const host = 'send.mail.acme.com';
  const target = 'rp.switchboard.example';
  const cname = (...targets: string[]): CnameAnswer => ({ kind: 'records', targets });

  it('matches a CNAME to the target, whatever its case and trailing dot', () => {
    expect(matchReturnPath(host, cname('RP.Switchboard.example.'), target)).toEqual({
      check: 'match',
      detail: null,
    });
  });

  it('fails a CNAME to another host, naming it', () => {
    const outcome = matchReturnPath(host, cname('bounces.elsewhere.example'), target);
    expect(outcome).toEqual({
      check: 'mismatch',
      detail: `the CNAME at ${host} points to "bounces.elsewhere.example", not ${target}`,
    });
  });

  it('is missing at a name without a CNAME, saying when other records (an SPF TXT) hold it', () => {
    expect(matchReturnPath(host, { kind: 'none', reason: 'nxdomain' }, target)).toEqual({
      check: 'missing',
      detail: `no CNAME record found at ${host}`,
    });
    const txtOnly = matchReturnPath(host, { kind: 'none', reason: 'nodata' }, target);
    expect(txtOnly.check).toBe('missing');
    expect(txtOnly.detail).toContain('the name has other records');
    expect(txtOnly.detail).toContain(`replace them with a CNAME to ${target}`);
  });

  it('is temporary when DNS did not answer', () => {
    const outcome = matchReturnPath(host, { kind: 'error', code: 'ETIMEOUT' }, target);
    expect(outcome.check).toBe('temporary');
    expect(outcome.detail).toContain('ETIMEOUT');
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
    returnPathTarget: 'rp.switchboard.example',
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
      returnPathRecord('mail.acme.com', 'bounce', 'rp.switchboard.example', 'pending'),
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
