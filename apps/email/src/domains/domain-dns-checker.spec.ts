import { loadConfig } from '@switchboard/platform';
import { startDnsServer } from '@switchboard/testing';
import type { TestDnsServer } from '@switchboard/testing';
import { emailEnv } from '../config/email.config';
import { DomainDnsChecker } from './domain-dns-checker';
import { returnPathRecord } from './domain-records';

const TARGET = 'rp.switchboard.test';

describe(DomainDnsChecker.name, () => {
  let dns: TestDnsServer;
  let checker: DomainDnsChecker;
  let serial = 0;
  /** A fresh return-path record per test, so tests do not see each other's answers. */
  const fresh = () => returnPathRecord(`mail.acme${(serial += 1)}.test`, 'send', TARGET);

  beforeAll(async () => {
    dns = await startDnsServer();
    checker = new DomainDnsChecker(
      loadConfig(emailEnv, {
        ENCRYPTION_KEY: 'test-encryption-key-0123456789',
        DNS_SERVERS: dns.address,
        DNS_TIMEOUT_MS: '300',
      }),
    );
  });

  afterAll(() => dns?.stop());

  const outcomeOf = async (record: ReturnType<typeof fresh>) =>
    (await checker.check(record.host.split('.').slice(1).join('.'), [record])).get(record);

  it('looks up the CNAME of the return-path host and matches its target', async () => {
    const record = fresh();
    dns.set(record.host, [{ type: 'CNAME', domain: `${TARGET.toUpperCase()}.` }]);
    expect(await outcomeOf(record)).toEqual({ check: 'match', detail: null });
  });

  it('fails a CNAME to another host', async () => {
    const record = fresh();
    dns.set(record.host, [{ type: 'CNAME', domain: 'bounces.other.test' }]);
    expect(await outcomeOf(record)).toMatchObject({
      check: 'mismatch',
      detail: expect.stringContaining('points to "bounces.other.test"'),
    });
  });

  it('does not accept an SPF TXT record at the host in place of the CNAME', async () => {
    const record = fresh();
    dns.set(record.host, [{ type: 'TXT', data: `v=spf1 a:${TARGET} ~all` }]);
    expect(await outcomeOf(record)).toMatchObject({
      check: 'missing',
      detail: expect.stringContaining('the name has other records'),
    });
  });

  it('is missing at an unknown name, temporary when the server fails', async () => {
    const record = fresh();
    expect(await outcomeOf(record)).toEqual({
      check: 'missing',
      detail: `no CNAME record found at ${record.host}`,
    });
    dns.set(record.host, 'servfail');
    expect(await outcomeOf(record)).toMatchObject({ check: 'temporary' });
  });
});
