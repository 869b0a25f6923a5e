import { BirdClient, BirdAPIError } from '@messagebird/sdk';
import fc from 'fast-check';
import { call, createWorkspace, startDnsServer } from '@switchboard/testing';
import type { CreatedWorkspace, TestDnsServer } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

/**
 * Lookups through the SDK: phone numbers answered from numbering metadata, email addresses
 * against a DNS server the test starts (DNS_SERVERS), and Idempotency-Key replays.
 */
describe('lookup', () => {
  let platform: TestPlatform;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;
  let bird: BirdClient;

  const mx = (exchange: string) => [{ type: 'MX' as const, exchange, priority: 10 }];
  const refusal = async (run: () => Promise<unknown>) => {
    const error = await run().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(BirdAPIError);
    return error as BirdAPIError;
  };

  beforeAll(async () => {
    dns = await startDnsServer();
    dns.set('acme.test', mx('mx.acme.test'));
    dns.set('nullmx.test', [{ type: 'MX', exchange: '', priority: 0 }]);
    // MX hosts with no address, or that are not hosts: nowhere to take mail.
    dns.set('dangling.test', mx('mx.dangling.test'));
    dns.set('localhostmx.test', mx('localhost'));
    dns.set('literalmx.test', mx('192.0.2.1'));
    // One dangling host and one usable one, the usable one less preferred: still accepts.
    dns.set('second.test', [
      { type: 'MX', exchange: 'gone.second.test', priority: 5 },
      { type: 'MX', exchange: 'mx.second.test', priority: 10 },
    ]);
    for (const host of [
      'mx.acme.test',
      'mx.second.test',
      'gmail-smtp-in.l.google.com',
      'mail.mailinator.com',
      'mx.moving.test',
    ])
      dns.set(host, [{ type: 'A', address: '127.0.0.1' }]);
    dns.set('afallback.test', [{ type: 'A', address: '127.0.0.1' }]);
    dns.set('gmail.com', mx('gmail-smtp-in.l.google.com'));
    dns.set('mailinator.com', mx('mail.mailinator.com'));
    dns.set('broken.test', 'servfail');
    platform = await startTestPlatform({
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '1000',
      RATE_LIMITS: 'read=100000,write=100000',
    });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base });
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await dns?.stop();
  });

  describe('phone numbers', () => {
    it.each([
      ['+31612345678', 'NL', 'mobile'],
      ['0031612345678', 'NL', 'mobile'],
      ['31 6 1234 5678', 'NL', 'mobile'],
      ['+4915123456789', 'DE', 'mobile'],
      ['+4930123456', 'DE', 'fixed_line'],
      ['+442079460018', 'GB', 'fixed_line'],
      ['+448001234567', 'GB', 'toll_free'],
      ['+18005550100', 'US', 'toll_free'],
      // Shared-cost and universal-access ranges: what a carrier calls service.
      ['+33810123456', 'FR', 'service'],
      ['+443001234567', 'GB', 'service'],
    ])('%s is a %s %s number', async (input, country, lineType) => {
      const answer = await bird.lookup.phoneNumber({ phone_number: input });
      expect(answer).toEqual({
        phone_number: input.startsWith('+')
          ? input
          : `+${input.replace(/\D/g, '').replace(/^00/, '')}`,
        country_code: country,
        flags: [],
        line_type: lineType,
      });
    });

    it('answers classification from the numbering plan and carrier-only properties as unavailable', async () => {
      const answer = await bird.lookup.phoneNumber({
        phone_number: '+12015550123',
        type: ['classification', 'porting', 'presence', 'roaming', 'sim_swap', 'score'],
      });
      expect(answer).toEqual({
        phone_number: '+12015550123',
        country_code: 'US',
        flags: [],
        line_type: 'other',
        classification: { status: 'ok', value: 'fixed_line_or_mobile' },
        porting: { status: 'unavailable' },
        presence: { status: 'unavailable' },
        roaming: { status: 'unavailable' },
        sim_swap: { status: 'unavailable' },
        score: { status: 'unavailable' },
      });
      expect(answer).not.toHaveProperty('network_info');
    });

    it('omits the country of a non-geographic number', async () => {
      const answer = await bird.lookup.phoneNumber({ phone_number: '+80012345678' });
      expect(answer.line_type).toBe('toll_free');
      expect(answer).not.toHaveProperty('country_code');
    });

    it('rejects a national number and text that is no number', async () => {
      for (const phone_number of ['0612345678', 'call me', '+1']) {
        const error = await refusal(() => bird.lookup.phoneNumber({ phone_number }));
        expect([error.statusCode, error.code]).toEqual([422, 'E01100']);
      }
    });

    it('refuses unknown fields and unknown properties', async () => {
      for (const body of [
        { phone_number: '+31612345678', carrier: 'x' },
        { phone_number: '+31612345678', type: ['weather'] },
      ]) {
        const response = await call(platform.base, 'POST', '/v1/lookup/phone-number', {
          token: acme.api_key.secret,
          body,
        });
        expect(response.status).toBe(422);
      }
    });

    it('never answers a 5xx to generated input', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.string({ maxLength: 24 }), fc.stringMatching(/^\+?[0-9 ()-]{0,20}$/)),
          async (phone_number) => {
            const response = await call(platform.base, 'POST', '/v1/lookup/phone-number', {
              token: acme.api_key.secret,
              body: { phone_number },
            });
            expect(response.status).toBeLessThan(500);
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('email addresses', () => {
    it('takes a domain with MX hosts as accepting mail, without confirming the mailbox', async () => {
      const answer = await bird.lookup.email({ email: 'Aisha.Khan@acme.test' });
      expect(answer).toEqual({
        email: 'Aisha.Khan@acme.test',
        valid: true,
        result: 'neutral',
        delivery_confidence: 75,
        flags: [],
      });
    });

    it('takes a local part beyond ASCII (RFC 6531) as well formed, and risky', async () => {
      const answer = await bird.lookup.email({ email: 'δοκιμή@acme.test' });
      expect(answer).toEqual({
        email: 'δοκιμή@acme.test',
        valid: true,
        result: 'risky',
        delivery_confidence: 45,
        flags: [],
      });
    });

    it.each([
      ['someone@nullmx.test', 'a null MX'],
      ['someone@nowhere.test', 'NXDOMAIN'],
      ['someone@dangling.test', 'an MX host without an address'],
      ['someone@localhostmx.test', 'an MX of localhost'],
      ['someone@literalmx.test', 'an MX that is an IP address'],
    ])('%s is undeliverable (%s)', async (email) => {
      const answer = await bird.lookup.email({ email });
      expect(answer).toEqual({
        email,
        valid: false,
        result: 'undeliverable',
        delivery_confidence: 0,
        flags: [],
        reason: 'invalid_domain',
      });
    });

    it('takes the domain as accepting when one of its MX hosts has an address', async () => {
      const answer = await bird.lookup.email({ email: 'someone@second.test' });
      expect([answer.valid, answer.result]).toEqual([true, 'neutral']);
    });

    it('falls back to the A record of a domain without MX', async () => {
      const answer = await bird.lookup.email({ email: 'someone@afallback.test' });
      expect([answer.valid, answer.result]).toEqual([true, 'neutral']);
    });

    it('does not read a failed lookup as a domain without mail hosts', async () => {
      const answer = await bird.lookup.email({ email: 'someone@broken.test' });
      expect(answer).toMatchObject({ valid: false, result: 'neutral' });
      expect(answer).not.toHaveProperty('reason');
    });

    it('flags disposable, role and free-provider addresses', async () => {
      expect(await bird.lookup.email({ email: 'x1@mailinator.com' })).toMatchObject({
        valid: true,
        result: 'risky',
        flags: ['disposable'],
      });
      expect(await bird.lookup.email({ email: 'support@acme.test' })).toMatchObject({
        valid: true,
        result: 'risky',
        flags: ['role'],
      });
      expect(await bird.lookup.email({ email: 'ann@gmail.com' })).toMatchObject({
        valid: true,
        result: 'neutral',
        flags: ['free_provider'],
      });
    });

    it('suggests the provider a misspelled domain looks like', async () => {
      const answer = await bird.lookup.email({ email: 'Ann@gmial.com' });
      expect(answer).toMatchObject({ result: 'typo', did_you_mean: 'Ann@gmail.com', valid: false });
      expect(answer).not.toHaveProperty('reason');
    });

    it('answers malformed addresses as invalid_syntax and refuses display names', async () => {
      for (const email of ['not an address', 'a@b', '@acme.test', 'a..b@acme.test']) {
        expect(await bird.lookup.email({ email })).toMatchObject({
          valid: false,
          result: 'undeliverable',
          reason: 'invalid_syntax',
          delivery_confidence: 0,
        });
      }
      const error = await refusal(() => bird.lookup.email({ email: 'Aisha <aisha@acme.test>' }));
      expect([error.statusCode, error.code]).toEqual([422, 'E01101']);
    });

    it('never answers a 5xx to generated input', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.string({ maxLength: 40 }), fc.emailAddress()),
          async (email) => {
            const response = await call(platform.base, 'POST', '/v1/lookup/email', {
              token: acme.api_key.secret,
              body: { email },
            });
            expect(response.status).toBeLessThan(500);
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  it('replays the stored answer for a repeated Idempotency-Key', async () => {
    dns.set('moving.test', mx('mx.moving.test'));
    const first = await bird.lookup.email({ email: 'a@moving.test' }, { idempotencyKey: 'lk-1' });
    dns.set('moving.test', 'nxdomain');
    const again = await bird.lookup.email({ email: 'a@moving.test' }, { idempotencyKey: 'lk-1' });
    const fresh = await bird.lookup.email({ email: 'a@moving.test' }, { idempotencyKey: 'lk-2' });
    expect(first.valid).toBe(true);
    expect(again).toEqual(first);
    expect(fresh.result).toBe('undeliverable');
  });
});
