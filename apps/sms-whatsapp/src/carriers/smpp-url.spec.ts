import fc from 'fast-check';
import { ConfigError, loadConfig } from '@switchboard/platform';
import { smsWhatsappEnv } from '../config/sms-whatsapp.config';
import { parseSmppUrl } from './smpp-url';

describe(parseSmppUrl.name, () => {
  it('reads carriers with percent-decoded credentials, defaults and parameters', () => {
    const [first, second] = parseSmppUrl(
      'smpp://bird%40x:p%3Ass@smsc.example.net:2776?window=5&tps=40&prefixes=31;32&prefixes=%2B49,' +
        'ssmpp://other:pw@[::1]?name=backup&sender_tps=0.5&system_type=VMA&enquire_link=10&submit_timeout=5&receipt_ids=decimal',
    );
    expect(first).toEqual({
      name: 'smsc.example.net:2776',
      host: 'smsc.example.net',
      port: 2776,
      tls: false,
      systemId: 'bird@x',
      password: 'p:ss',
      systemType: '',
      window: 5,
      tps: 40,
      prefixes: ['31', '32', '49'],
      enquireLinkSeconds: 30,
      submitTimeoutSeconds: 30,
      receiptIds: 'same',
    });
    expect(second).toMatchObject({
      name: 'backup',
      host: '::1',
      port: 3550,
      tls: true,
      systemType: 'VMA',
      window: 10,
      tps: 100,
      senderTps: 0.5,
      prefixes: [],
      enquireLinkSeconds: 10,
      submitTimeoutSeconds: 5,
      receiptIds: 'decimal',
    });
  });

  it.each([
    ['http://a:b@h:1', /smpp:\/\/ or ssmpp:\/\//],
    ['smpp://h:2775', /system_id/],
    ['smpp://a:b@h:2775?tps=0', /tps="0"/],
    ['smpp://a:b@h:2775?window=ten', /window/],
    ['smpp://a:b@h:2775?sender_tps=0', /sender_tps="0"/],
    ['smpp://a:b@h:2775?sender_tps=1e3', /sender_tps="1e3"/],
    ['smpp://a:b@h:2775?colour=red', /unknown parameter "colour"/],
    ['smpp://a:b@h:2775?prefixes=3x', /bad prefix "3x"/],
    ['smpp://a:b@h:1,smpp://a:b@h:1', /twice/],
    ['smpp://a:b@h:1?prefixes=31,smpp://a:b@g:1?prefixes=31', /prefix 31 to two/],
    ['smpp://a:%E0%A4%A@h:1', /percent-encoded password/],
    ['smpp://a:b@h:0', /port/],
    ['smpp://a:b@h:1?receipt_ids=octal', /receipt_ids="octal"/],
  ])('refuses %s', (raw, problem) => {
    expect(() => parseSmppUrl(raw)).toThrow(problem);
  });

  it('stops the boot with one line naming SMPP_URL, whatever the garbage', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ minLength: 1 }),
          fc.webUrl().map((url) => url.replace(/^https?/, 'smpp')),
          fc
            .tuple(fc.string(), fc.string(), fc.string(), fc.string())
            .map(([user, pass, host, query]) => `smpp://${user}:${pass}@${host}:2775?${query}`),
        ),
        (raw) => {
          try {
            const config = loadConfig(smsWhatsappEnv, {
              ENCRYPTION_KEY: 'k'.repeat(32),
              SMPP_URL: raw,
            });
            expect(Array.isArray(config.SMPP_URL) || config.SMPP_URL === undefined).toBe(true);
          } catch (err) {
            expect(err).toBeInstanceOf(ConfigError);
            expect((err as ConfigError).message).toMatch(/^Invalid configuration: SMPP_URL /);
            expect((err as ConfigError).message).not.toContain('\n');
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
