import { simpleParser } from 'mailparser';
import { freePort } from '@switchboard/platform';
import type { MailTransport } from './mail-transport';
import { SmtpRelayTransport } from './smtp-relay.transport';
import { configWith, HELO, mail, rcptRules } from './test/test-mail';
import { startTestSmtpServer } from './test/test-servers';
import type { Reply, TestSmtpServer } from './test/test-servers';

/** Mail through the relay of SMTP_RELAY_URL; what every transport does: mail-transport.spec. */
describe(SmtpRelayTransport.name, () => {
  let server: TestSmtpServer;
  let transport: SmtpRelayTransport;
  let dataReply: Reply | undefined;

  beforeAll(async () => {
    server = await startTestSmtpServer({ rcpt: rcptRules, data: () => dataReply });
    transport = new SmtpRelayTransport(
      configWith({ SMTP_RELAY_URL: server.url, EMAIL_DESTINATION_CONCURRENCY: '2' }),
    );
  });
  afterAll(async () => {
    await transport.close();
    await server.stop();
  });
  afterEach(() => {
    dataReply = undefined;
  });

  it('gives "relay" as the destination of every recipient', () => {
    const generic: MailTransport = transport;
    expect(generic.destinationOf('ann@example.test')).toBe('relay');
    expect(generic.destinationOf('bob@other.test')).toBe('relay');
  });

  it('delivers the message to every recipient: 250, the envelope and headers as given', async () => {
    const sent = mail({
      to: [{ email: 'ann@example.test', name: 'Ann' }],
      cc: [{ email: 'carl@other.test' }],
      replyTo: [{ email: 'help@sender.test' }],
      recipients: ['ann@example.test', 'carl@other.test'],
    });
    const results = await transport.deliver(sent);
    expect(results).toEqual([
      expect.objectContaining({
        recipient: 'ann@example.test',
        outcome: 'delivered',
        code: '250',
        bounceType: null,
      }),
      expect.objectContaining({
        recipient: 'carl@other.test',
        outcome: 'delivered',
        code: '250',
        bounceType: null,
      }),
    ]);
    const received = server.messages.at(-1)!;
    expect(received.mailFrom).toBe('bounces@rp.sender.test');
    expect(received.rcptTo).toEqual(['ann@example.test', 'carl@other.test']);
    expect(received.helo).toBe(HELO);
    const parsed = await simpleParser(received.raw);
    expect(parsed.messageId).toBe(`<${sent.messageId}>`);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.subject).toBe('Hello');
    expect(parsed.from?.value).toEqual([{ address: 'news@sender.test', name: 'Sender' }]);
    expect(parsed.headers.get('x-campaign')).toBe('spring');
    expect(parsed.replyTo?.value[0].address).toBe('help@sender.test');
    expect(parsed.text?.trim()).toBe('Hello there');
  });

  it('bounces the recipient refused with 550 and delivers the other, in one transaction', async () => {
    const before = server.messages.length;
    const results = await transport.deliver(
      mail({ recipients: ['ann@example.test', 'nobody@example.test'] }),
    );
    expect(results).toEqual([
      expect.objectContaining({
        recipient: 'ann@example.test',
        outcome: 'delivered',
        code: '250',
      }),
      {
        recipient: 'nobody@example.test',
        outcome: 'bounced',
        code: '550',
        response: '550 5.1.1 nobody: user unknown',
        bounceType: 'hard',
      },
    ]);
    expect(server.messages.length).toBe(before + 1);
    expect(server.messages.at(-1)!.rcptTo).toEqual(['ann@example.test']);
  });

  it('defers a recipient refused with 451', async () => {
    const results = await transport.deliver(
      mail({ recipients: ['later@example.test', 'ann@example.test'] }),
    );
    expect(results[0]).toEqual({
      recipient: 'later@example.test',
      outcome: 'deferred',
      code: '451',
      response: '451 4.2.1 try again later',
      bounceType: 'soft',
    });
    expect(results[1].outcome).toBe('delivered');
  });

  it('gives each recipient its own reply when all are refused', async () => {
    const before = server.messages.length;
    const results = await transport.deliver(
      mail({ recipients: ['nobody@example.test', 'later@example.test'] }),
    );
    expect(results.map((result) => [result.outcome, result.code])).toEqual([
      ['bounced', '550'],
      ['deferred', '451'],
    ]);
    expect(server.messages.length).toBe(before);
  });

  it('applies a refused DATA to every recipient: 554 bounces, 452 defers', async () => {
    dataReply = { code: 554, message: '5.7.1 message rejected as spam' };
    const bounced = await transport.deliver(
      mail({ recipients: ['ann@example.test', 'bob@example.test'] }),
    );
    expect(bounced.map((result) => [result.outcome, result.code, result.bounceType])).toEqual([
      ['bounced', '554', 'block'],
      ['bounced', '554', 'block'],
    ]);
    dataReply = { code: 452, message: '4.3.1 insufficient system storage' };
    const deferred = await transport.deliver(mail({ recipients: ['ann@example.test'] }));
    expect(deferred[0]).toMatchObject({ outcome: 'deferred', code: '452', bounceType: 'soft' });
  });

  it('sends a bcc recipient the message in RCPT TO only: no Bcc header in the bytes', async () => {
    await transport.deliver(
      mail({
        to: [{ email: 'ann@example.test' }],
        recipients: ['ann@example.test', 'hidden@example.test'],
      }),
    );
    const received = server.messages.at(-1)!;
    expect(received.rcptTo).toEqual(['ann@example.test', 'hidden@example.test']);
    const parsed = await simpleParser(received.raw);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.headers.has('bcc')).toBe(false);
    expect(received.raw.toString('latin1')).not.toMatch(/hidden@example\.test/);
  });

  it('reuses connections: N sequential messages open fewer than N', async () => {
    const opened = server.connections.opened;
    for (let i = 0; i < 5; i++) {
      const [result] = await transport.deliver(mail());
      expect(result.outcome).toBe('delivered');
    }
    expect(server.connections.opened - opened).toBeLessThan(5);
  });

  it('defers every recipient when the relay refuses connections (no reply code)', async () => {
    const closed = new SmtpRelayTransport(
      configWith({ SMTP_RELAY_URL: `smtp://127.0.0.1:${await freePort()}` }),
    );
    try {
      const results = await closed.deliver(
        mail({ recipients: ['ann@example.test', 'bob@example.test'] }),
      );
      for (const result of results) {
        expect(result).toMatchObject({ outcome: 'deferred', code: null, bounceType: 'soft' });
        expect(result.response).toMatch(/ECONNREFUSED/);
      }
    } finally {
      await closed.close();
    }
  });
});
