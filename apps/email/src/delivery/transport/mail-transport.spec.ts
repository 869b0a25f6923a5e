import { Test } from '@nestjs/testing';
import { freePort } from '@switchboard/platform';
import { EMAIL_CONFIG } from '../../config/email.config';
import { DirectMxTransport } from './direct-mx.transport';
import { MAIL_TRANSPORT } from './mail-transport';
import type { MailTransport } from './mail-transport';
import { mailTransportProvider } from './mail-transport.provider';
import { SmtpRelayTransport } from './smtp-relay.transport';
import { configWith, mail, rcptRules } from './test/test-mail';
import { startTestDnsServer, startTestSmtpServer } from './test/test-servers';
import type { TestDnsServer, TestSmtpServer } from './test/test-servers';

/**
 * The `MailTransport` contract, the same for every implementation, against local SMTP peers:
 * what the rest of the service relies on whichever transport the configuration picks. What is
 * particular to each (MX routing, relay errors) is in its own spec.
 */
describe('MailTransport', () => {
  let dnsServer: TestDnsServer;
  let server: TestSmtpServer;
  let slow: TestSmtpServer;

  beforeAll(async () => {
    dnsServer = await startTestDnsServer();
    for (const domain of ['example.test', 'other.test']) {
      dnsServer.set(domain, [{ type: 'MX', exchange: `mx.${domain}`, priority: 10 }]);
      dnsServer.set(`mx.${domain}`, [{ type: 'A', address: '127.0.0.1' }]);
    }
    server = await startTestSmtpServer({ rcpt: rcptRules });
    slow = await startTestSmtpServer({ dataDelayMs: 300 });
  });
  afterAll(async () => {
    await server.stop();
    await slow.stop();
    await dnsServer.stop();
  });

  /** Each implementation, set up to reach the SMTP server listening on 127.0.0.1:`port`. */
  const implementations: Array<[string, (port: number) => MailTransport]> = [
    [
      SmtpRelayTransport.name,
      (port) => new SmtpRelayTransport(configWith({ SMTP_RELAY_URL: `smtp://127.0.0.1:${port}` })),
    ],
    [
      DirectMxTransport.name,
      (port) =>
        new DirectMxTransport(configWith({ DNS_SERVERS: dnsServer.address }), { mxPort: port }),
    ],
  ];

  describe.each(implementations)('%s', (_name, create) => {
    let transport: MailTransport;
    const created: MailTransport[] = [];
    const make = (port: number) => {
      const made = create(port);
      created.push(made);
      return made;
    };

    beforeAll(() => {
      transport = make(server.port);
    });
    afterAll(async () => {
      for (const made of created) await made.close();
    });

    it('gives recipients of one domain one destination, whatever the case', () => {
      const destination = transport.destinationOf('ann@example.test');
      expect(destination).toEqual(expect.any(String));
      expect(transport.destinationOf('Bob@EXAMPLE.test')).toBe(destination);
    });

    it('answers one result per recipient, in their order: 250 delivered, 550 bounced, 451 deferred', async () => {
      const results = await transport.deliver(
        mail({ recipients: ['later@example.test', 'ann@example.test', 'nobody@other.test'] }),
      );
      expect(results).toEqual([
        expect.objectContaining({
          recipient: 'later@example.test',
          outcome: 'deferred',
          code: '451',
          bounceType: 'soft',
        }),
        expect.objectContaining({
          recipient: 'ann@example.test',
          outcome: 'delivered',
          code: '250',
          bounceType: null,
        }),
        expect.objectContaining({
          recipient: 'nobody@other.test',
          outcome: 'bounced',
          code: '550',
          bounceType: 'hard',
        }),
      ]);
      expect(server.messages.some((got) => got.rcptTo.includes('ann@example.test'))).toBe(true);
    });

    it('answers a server it cannot reach with deferrals, not an exception', async () => {
      const unreachable = make(await freePort());
      const results = await unreachable.deliver(
        mail({ recipients: ['ann@example.test', 'bob@example.test'] }),
      );
      expect(results).toHaveLength(2);
      for (const result of results)
        expect(result).toMatchObject({ outcome: 'deferred', code: null, bounceType: 'soft' });
    });

    it('throws when the message cannot be composed (a broken DKIM key)', async () => {
      await expect(
        transport.deliver(
          mail({ dkim: { domainName: 'sender.test', keySelector: 's1', privateKey: 'no key' } }),
        ),
      ).rejects.toThrow();
    });

    it('lets a delivery in flight finish at close(), then defers later ones without trying', async () => {
      const closing = make(slow.port);
      const inFlight = closing.deliver(mail());
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(closing.isClosing).toBe(false);
      const closed = closing.close();
      expect(closing.isClosing).toBe(true);
      const [during] = await inFlight;
      expect(during).toMatchObject({ outcome: 'delivered', code: '250' });
      await closed;
      const opened = slow.connections.opened;
      const [after] = await closing.deliver(mail());
      expect(after).toMatchObject({ outcome: 'deferred', code: null, bounceType: 'soft' });
      expect(after.response).toMatch(/shutting down/);
      expect(slow.connections.opened).toBe(opened);
      await expect(closing.close()).resolves.toBeUndefined();
    });
  });

  describe('mailTransportProvider', () => {
    it.each([
      ['the relay when SMTP_RELAY_URL is set', true, SmtpRelayTransport],
      ['direct MX delivery otherwise', false, DirectMxTransport],
    ])('sets up %s, and closes it at shutdown', async (_case, relay, type) => {
      const config = configWith(relay ? { SMTP_RELAY_URL: server.url } : {});
      const moduleRef = await Test.createTestingModule({
        providers: [{ provide: EMAIL_CONFIG, useValue: config }, mailTransportProvider],
      }).compile();
      const transport = moduleRef.get<MailTransport>(MAIL_TRANSPORT);
      expect(transport).toBeInstanceOf(type);
      await moduleRef.close();
      expect(transport.isClosing).toBe(true);
    });
  });
});
