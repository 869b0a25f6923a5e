import { generateKeyPairSync } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { DirectMxTransport } from './direct-mx.transport';
import { configWith, HELO, mail, rcptRules } from './test/test-mail';
import { startTestDnsServer, startTestSmtpServer } from './test/test-servers';
import type { TestDnsServer, TestSmtpServer } from './test/test-servers';

/** Mail to each domain's MX hosts; what every transport does: mail-transport.spec. */
describe(DirectMxTransport.name, () => {
  let dnsServer: TestDnsServer;
  let server: TestSmtpServer;
  let transport: DirectMxTransport;
  const transports: DirectMxTransport[] = [];
  const servers: TestSmtpServer[] = [];

  /** A transport resolving through the test DNS server, MX port `port`. */
  function directTransport(port: number, env: Record<string, string> = {}): DirectMxTransport {
    const created = new DirectMxTransport(configWith({ DNS_SERVERS: dnsServer.address, ...env }), {
      mxPort: port,
      connectionTimeoutMs: 5000,
    });
    transports.push(created);
    return created;
  }

  /** `domain` MX 10 mx.<domain>, which is 127.0.0.1. */
  function publish(domain: string): void {
    dnsServer.set(domain, [{ type: 'MX', exchange: `mx.${domain}`, priority: 10 }]);
    dnsServer.set(`mx.${domain}`, [{ type: 'A', address: '127.0.0.1' }]);
  }

  beforeAll(async () => {
    dnsServer = await startTestDnsServer();
    server = await startTestSmtpServer({ rcpt: rcptRules });
    servers.push(server);
    transport = directTransport(server.port);
    publish('example.test');
  });
  afterAll(async () => {
    for (const created of transports) await created.close();
    for (const started of servers) await started.stop();
    await dnsServer.stop();
  });

  it('gives the lower-cased (ASCII) recipient domain as the destination', () => {
    expect(transport.destinationOf('Ann@Example.TEST')).toBe('example.test');
    expect(transport.destinationOf('bo@bücher.test')).toBe('xn--bcher-kva.test');
  });

  it("delivers to the domain's MX host, saying EMAIL_HELO_NAME in EHLO", async () => {
    const results = await transport.deliver(
      mail({ recipients: ['ann@example.test', 'nobody@example.test'] }),
    );
    expect(results.map((result) => [result.outcome, result.code])).toEqual([
      ['delivered', '250'],
      ['bounced', '550'],
    ]);
    const received = server.messages.at(-1)!;
    expect(received.rcptTo).toEqual(['ann@example.test']);
    expect(received.helo).toBe(HELO);
  });

  it('defers a recipient the MX host refuses with 451', async () => {
    const [result] = await transport.deliver(mail({ recipients: ['later@example.test'] }));
    expect(result).toMatchObject({ outcome: 'deferred', code: '451', bounceType: 'soft' });
  });

  it('bounces (hard) mail for a domain with a null MX, without connecting', async () => {
    dnsServer.set('nullmx.test', [{ type: 'MX', exchange: '', priority: 0 }]);
    const opened = server.connections.opened;
    const [result] = await transport.deliver(mail({ recipients: ['ann@nullmx.test'] }));
    expect(result).toMatchObject({ outcome: 'bounced', code: null, bounceType: 'hard' });
    expect(result.response).toMatch(/^5\.1\.10 nullmx\.test accepts no mail/);
    expect(server.connections.opened).toBe(opened);
  });

  it('bounces (hard) mail for a domain that does not exist (NXDOMAIN)', async () => {
    dnsServer.set('gone.test', 'nxdomain');
    const [result] = await transport.deliver(mail({ recipients: ['ann@gone.test'] }));
    expect(result).toMatchObject({ outcome: 'bounced', code: null, bounceType: 'hard' });
    expect(result.response).toMatch(/^5\.1\.2 gone\.test does not exist/);
  });

  it("falls back to the domain's own address when it has no MX record (NODATA)", async () => {
    dnsServer.set('implicit.test', [{ type: 'A', address: '127.0.0.1' }]);
    const [result] = await transport.deliver(mail({ recipients: ['ann@implicit.test'] }));
    expect(result).toMatchObject({ outcome: 'delivered', code: '250' });
    expect(server.messages.at(-1)!.rcptTo).toEqual(['ann@implicit.test']);
  });

  it('bounces (hard) mail for a domain with neither MX nor address records', async () => {
    dnsServer.set('bare.test', [{ type: 'TXT', data: 'v=spf1 -all' }]);
    const [result] = await transport.deliver(mail({ recipients: ['ann@bare.test'] }));
    expect(result).toMatchObject({ outcome: 'bounced', bounceType: 'hard' });
    expect(result.response).toMatch(/no MX, A or AAAA record/);
  });

  it('defers (never bounces) when the MX lookup fails with SERVFAIL', async () => {
    dnsServer.set('broken.test', 'servfail');
    const [result] = await transport.deliver(mail({ recipients: ['ann@broken.test'] }));
    expect(result).toMatchObject({ outcome: 'deferred', code: null, bounceType: 'soft' });
    expect(result.response).toMatch(/^4\.4\.3 MX lookup of broken\.test failed: ESERVFAIL/);
  });

  it('defers (never bounces) when the DNS server does not answer', async () => {
    dnsServer.set('silent.test', 'silent');
    const impatient = directTransport(server.port, { DNS_TIMEOUT_MS: '150' });
    const [result] = await impatient.deliver(mail({ recipients: ['ann@silent.test'] }));
    expect(result).toMatchObject({ outcome: 'deferred', code: null, bounceType: 'soft' });
    expect(result.response).toMatch(/ETIMEOUT/);
  });

  it('moves to the next MX host when the first refuses connections', async () => {
    dnsServer.set('failover.test', [
      { type: 'MX', exchange: 'mx2.failover.test', priority: 20 },
      { type: 'MX', exchange: 'mx1.failover.test', priority: 10 },
    ]);
    // Nothing listens on 127.0.0.2: the connection is refused.
    dnsServer.set('mx1.failover.test', [{ type: 'A', address: '127.0.0.2' }]);
    dnsServer.set('mx2.failover.test', [{ type: 'A', address: '127.0.0.1' }]);
    const [result] = await transport.deliver(mail({ recipients: ['ann@failover.test'] }));
    expect(result).toMatchObject({ outcome: 'delivered', code: '250' });
    expect(server.messages.at(-1)!.rcptTo).toEqual(['ann@failover.test']);
  });

  it('moves to the next MX host when the first greets with 421, but not past a refused RCPT', async () => {
    const busy = await startTestSmtpServer({
      host: '127.0.0.4',
      port: server.port,
      greeting: { code: 421, message: '4.3.2 too busy, try later' },
    });
    servers.push(busy);
    dnsServer.set('busy-first.test', [
      { type: 'MX', exchange: 'mx1.busy-first.test', priority: 10 },
      { type: 'MX', exchange: 'mx2.busy-first.test', priority: 20 },
    ]);
    dnsServer.set('mx1.busy-first.test', [{ type: 'A', address: '127.0.0.4' }]);
    dnsServer.set('mx2.busy-first.test', [{ type: 'A', address: '127.0.0.1' }]);
    const results = await transport.deliver(
      mail({ recipients: ['ann@busy-first.test', 'nobody@busy-first.test'] }),
    );
    expect(results.map((result) => [result.outcome, result.code])).toEqual([
      ['delivered', '250'],
      ['bounced', '550'],
    ]);
    expect(busy.connections.opened).toBeGreaterThan(0);
    expect(busy.messages).toHaveLength(0);
    expect(server.messages.at(-1)!.rcptTo).toEqual(['ann@busy-first.test']);
  });

  it('defers when no MX host can be reached, naming each failure', async () => {
    dnsServer.set('down.test', [
      { type: 'MX', exchange: 'mx1.down.test', priority: 10 },
      { type: 'MX', exchange: 'mx2.down.test', priority: 20 },
    ]);
    dnsServer.set('mx1.down.test', [{ type: 'A', address: '127.0.0.2' }]);
    dnsServer.set('mx2.down.test', [{ type: 'A', address: '127.0.0.3' }]);
    const [result] = await transport.deliver(mail({ recipients: ['ann@down.test'] }));
    expect(result).toMatchObject({ outcome: 'deferred', code: null, bounceType: 'soft' });
    expect(result.response).toMatch(/mx1\.down\.test \[127\.0\.0\.2\].*ECONNREFUSED/);
    expect(result.response).toMatch(/mx2\.down\.test \[127\.0\.0\.3\].*ECONNREFUSED/);
  });

  it('signs with DKIM when asked, and the signature verifies against the published key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const published = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    dnsServer.set('s1._domainkey.sender.test', [
      { type: 'TXT', data: `v=DKIM1; k=rsa; p=${published}` },
    ]);
    const [result] = await transport.deliver(
      mail({
        dkim: {
          domainName: 'sender.test',
          keySelector: 's1',
          privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      }),
    );
    expect(result.outcome).toBe('delivered');
    const lookup = new dns.Resolver();
    lookup.setServers([dnsServer.address]);
    const verified = await dkimVerify(server.messages.at(-1)!.raw, {
      resolver: async (name: string, type: string) => {
        if (type !== 'TXT') throw Object.assign(new Error('no data'), { code: 'ENODATA' });
        return lookup.resolveTxt(name);
      },
    });
    expect(verified.results).toHaveLength(1);
    expect(verified.results[0].status.result).toBe('pass');
    expect(verified.results[0].signingDomain).toBe('sender.test');
  });

  it('reuses connections to an MX host: N sequential messages open fewer than N', async () => {
    const opened = server.connections.opened;
    for (let i = 0; i < 5; i++) {
      const [result] = await transport.deliver(mail());
      expect(result.outcome).toBe('delivered');
    }
    expect(server.connections.opened - opened).toBeLessThan(5);
  });

  it('never runs more than EMAIL_DESTINATION_CONCURRENCY deliveries to one domain at once', async () => {
    const slow = await startTestSmtpServer({ dataDelayMs: 100 });
    servers.push(slow);
    publish('busy.test');
    const limited = directTransport(slow.port, { EMAIL_DESTINATION_CONCURRENCY: '2' });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => limited.deliver(mail({ recipients: ['ann@busy.test'] }))),
    );
    expect(results.flat().every((result) => result.outcome === 'delivered')).toBe(true);
    expect(slow.messages).toHaveLength(8);
    expect(slow.transactions.maxActive).toBeLessThanOrEqual(2);
    expect(slow.connections.maxOpen).toBeLessThanOrEqual(2);
  });

  it('never runs more than EMAIL_DELIVERY_CONCURRENCY deliveries in all', async () => {
    const slow = await startTestSmtpServer({ dataDelayMs: 100 });
    servers.push(slow);
    const domains = ['one.test', 'two.test', 'three.test', 'four.test'];
    domains.forEach(publish);
    const limited = directTransport(slow.port, {
      EMAIL_DELIVERY_CONCURRENCY: '3',
      EMAIL_DESTINATION_CONCURRENCY: '8',
    });
    const results = await Promise.all(
      domains.flatMap((domain) =>
        [1, 2].map(() => limited.deliver(mail({ recipients: [`ann@${domain}`] }))),
      ),
    );
    expect(results.flat().every((result) => result.outcome === 'delivered')).toBe(true);
    expect(slow.messages).toHaveLength(8);
    expect(slow.transactions.maxActive).toBeLessThanOrEqual(3);
  });

  it('splits recipients of several domains among their MX hosts and answers in their order', async () => {
    publish('alpha.test');
    publish('beta.test');
    const before = server.messages.length;
    const results = await transport.deliver(
      mail({ recipients: ['a@alpha.test', 'b@beta.test', 'nobody@alpha.test'] }),
    );
    expect(results.map((result) => [result.recipient, result.outcome])).toEqual([
      ['a@alpha.test', 'delivered'],
      ['b@beta.test', 'delivered'],
      ['nobody@alpha.test', 'bounced'],
    ]);
    expect(server.messages.length).toBe(before + 2);
  });
});
