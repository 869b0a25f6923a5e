import {
  addressKey,
  bounceTypeOf,
  classifyReply,
  cleanResponse,
  MAX_RESPONSE_LENGTH,
  resultsFromError,
  resultsFromInfo,
} from './smtp-replies';

describe('smtp replies', () => {
  it('delivers on 2xx, defers on 4xx (soft), bounces on 5xx', () => {
    expect(classifyReply(250, '250 2.0.0 OK')).toEqual({ outcome: 'delivered', bounceType: null });
    expect(classifyReply(451, '451 4.7.1 greylisted')).toEqual({
      outcome: 'deferred',
      bounceType: 'soft',
    });
    expect(classifyReply(550, '550 5.1.1 user unknown').outcome).toBe('bounced');
    expect(classifyReply(354, '354 go ahead')).toEqual({
      outcome: 'deferred',
      bounceType: 'undetermined',
    });
  });

  it.each([
    ['550 5.1.1 <a@example.com>: Recipient address rejected: User unknown', 'hard'],
    ['550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found', 'hard'],
    ['550 5.1.8 Sender address rejected: Domain not found', 'admin'],
    ['552 5.2.2 The email account that you tried to reach is over quota', 'soft'],
    ['550 5.2.1 The email account that you tried to reach is disabled', 'hard'],
    [
      '554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org',
      'block',
    ],
    [
      '550 5.7.1 Our system has detected that this message is likely unsolicited mail (spam)',
      'block',
    ],
    ['554 5.7.1 <a@example.com>: Relay access denied', 'admin'],
    [
      '550 5.7.26 Unauthenticated email from example.com is not accepted due to DMARC policy',
      'admin',
    ],
    ['550 No such user here', 'hard'],
    ['552 Mailbox full', 'soft'],
    ['554 Transaction failed', 'undetermined'],
    ['552 5.3.4 Message size exceeds fixed limit', 'undetermined'],
  ])('classifies %j as %s', (reply, expected) => {
    expect(bounceTypeOf(reply)).toBe(expected);
  });

  it('keeps the reply on one line of at most 500 characters', () => {
    expect(cleanResponse('550-5.1.1 first\r\n550 5.1.1 second')).toBe(
      '550-5.1.1 first 550 5.1.1 second',
    );
    const long = cleanResponse(`550 ${'x'.repeat(2000)}`);
    expect(long).toHaveLength(MAX_RESPONSE_LENGTH);
  });

  it("matches nodemailer's spelling of an address (lower-case, punycode domain)", () => {
    expect(addressKey('Ann@Bücher.Example')).toBe('ann@xn--bcher-kva.example');
    expect(addressKey('ann@example.com')).toBe('ann@example.com');
  });

  it('reads accepted and refused recipients of one transaction; one in neither list is deferred', () => {
    const results = resultsFromInfo(['ann@example.com', 'Bob@Example.com', 'cy@example.com'], {
      accepted: ['ann@example.com'],
      rejected: ['Bob@example.com'],
      rejectedErrors: [
        {
          message: 'Recipient command failed',
          code: 'EENVELOPE',
          recipient: 'Bob@example.com',
          responseCode: 550,
          response: '550 5.1.1 no such user',
        },
      ],
      response: '250 2.0.0 queued as 123',
    });
    expect(results).toEqual([
      {
        recipient: 'ann@example.com',
        outcome: 'delivered',
        code: '250',
        response: '250 2.0.0 queued as 123',
        bounceType: null,
      },
      {
        recipient: 'Bob@Example.com',
        outcome: 'bounced',
        code: '550',
        response: '550 5.1.1 no such user',
        bounceType: 'hard',
      },
      expect.objectContaining({ recipient: 'cy@example.com', outcome: 'deferred', code: null }),
    ]);
  });

  it('applies a failure without a reply to every recipient as a deferral, saying where', () => {
    const results = resultsFromError(
      ['ann@example.com', 'bob@example.com'],
      {
        message: 'connect ECONNREFUSED 192.0.2.1:25',
        code: 'ESOCKET',
        originalCode: 'ECONNREFUSED',
        command: 'CONN',
      },
      'to mx.example.com [192.0.2.1]:25',
    );
    for (const result of results) {
      expect(result).toMatchObject({ outcome: 'deferred', code: null, bounceType: 'soft' });
      expect(result.response).toBe(
        '4.4.1 connection to mx.example.com [192.0.2.1]:25 failed: ECONNREFUSED (connect ECONNREFUSED 192.0.2.1:25)',
      );
    }
  });
});
