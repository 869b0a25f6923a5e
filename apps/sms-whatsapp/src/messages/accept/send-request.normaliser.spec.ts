import fc from 'fast-check';
import { SmsErrors } from '@switchboard/contracts';
import { normaliseSend, sendProblemsError } from './send-request.normaliser';

const valid = { to: '+31 6 1234 5678', from: 'Acme', text: 'Hello', category: 'transactional' };

function problemsOf(body: unknown, prefix?: string) {
  const result = normaliseSend(body, prefix);
  if (result.ok) throw new Error('expected problems');
  return result.problems;
}

describe(normaliseSend.name, () => {
  it('accepts a free-text send, the recipient in canonical E.164', () => {
    const result = normaliseSend({ ...valid, tags: [{ name: 'kind', value: 'otp-1' }] });
    expect(result).toEqual({
      ok: true,
      value: expect.objectContaining({
        to: '+31612345678',
        from: 'Acme',
        text: 'Hello',
        category: 'transactional',
        smartEncoding: false,
        tags: [{ name: 'kind', value: 'otp-1' }],
        metadata: {},
      }),
    });
  });

  it('answers every preview field with SMSUnsupportedFeature', () => {
    const problems = problemsOf({
      ...valid,
      validity_period: 600,
      media_urls: ['https://x'],
      personalization: {},
      options: { track_clicks: true, max_price_per_segment: 0.1 },
    });
    expect(problems.map((p) => [p.param, p.code])).toEqual(
      expect.arrayContaining([
        ['validity_period', SmsErrors.SMSUnsupportedFeature],
        ['media_urls', SmsErrors.SMSUnsupportedFeature],
        ['personalization', SmsErrors.SMSUnsupportedFeature],
        ['options.track_clicks', SmsErrors.SMSUnsupportedFeature],
        ['options.max_price_per_segment', SmsErrors.SMSUnsupportedFeature],
      ]),
    );
    expect(sendProblemsError(problems).code).toBe(SmsErrors.SMSUnsupportedFeature);
  });

  it('requires from with text (SMSNoEligibleSender) and a routable to (SMSInvalidRecipient)', () => {
    expect(sendProblemsError(problemsOf({ ...valid, from: undefined })).code).toBe(
      SmsErrors.SMSNoEligibleSender,
    );
    expect(sendProblemsError(problemsOf({ ...valid, to: 'not a number' })).code).toBe(
      SmsErrors.SMSInvalidRecipient,
    );
  });

  it('refuses text with template, neither, from or category with template', () => {
    expect(problemsOf({ ...valid, template: { slug: 'x' } }).map((p) => p.param)).toContain(
      'template',
    );
    expect(problemsOf({ to: valid.to }).map((p) => p.param)).toContain('text');
    expect(
      problemsOf({ to: valid.to, from: 'Acme', template: { slug: 'x' } }).map((p) => p.param),
    ).toEqual(['from']);
  });

  it('refuses a body over 12 segments with SMSBodyTooLong, never truncating', () => {
    expect(normaliseSend({ ...valid, text: 'a'.repeat(1836) }).ok).toBe(true);
    const problems = problemsOf({ ...valid, text: 'a'.repeat(1837) });
    expect(sendProblemsError(problems).code).toBe(SmsErrors.SMSBodyTooLong);
    expect(sendProblemsError(problemsOf({ ...valid, text: '😀'.repeat(403) })).code).toBe(
      SmsErrors.SMSBodyTooLong,
    );
  });

  it('checks tags (at most 20, charset, unique names) and metadata (2 KB)', () => {
    const tags = Array.from({ length: 21 }, (_, i) => ({ name: `t${i}`, value: 'v' }));
    expect(problemsOf({ ...valid, tags }).map((p) => p.param)).toContain('tags');
    expect(
      problemsOf({
        ...valid,
        tags: [
          { name: 'a', value: 'x' },
          { name: 'a', value: 'y' },
        ],
      }).map((p) => p.param),
    ).toEqual(['tags[1].name']);
    expect(problemsOf({ ...valid, tags: [{ name: 'a b', value: 'x' }] })[0].param).toBe(
      'tags[0].name',
    );
    expect(problemsOf({ ...valid, metadata: { x: 'y'.repeat(2100) } })[0].param).toBe('metadata');
  });

  it('names a batch item field with its index and refuses unknown fields of items', () => {
    const problems = problemsOf({ ...valid, colour: 'red' }, 'messages[3].');
    expect(problems.map((p) => p.param)).toEqual(['messages[3].colour']);
  });

  it('never throws on generated bodies, and always answers ok or named problems', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            to: fc.oneof(fc.string(), fc.integer(), fc.constant('+14155550100')),
            from: fc.oneof(fc.string(), fc.constant(null)),
            text: fc.oneof(fc.string(), fc.integer()),
            category: fc.oneof(fc.string(), fc.constant('marketing')),
            tags: fc.anything(),
            metadata: fc.anything(),
            options: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        (body) => {
          const result = normaliseSend(body);
          if (!result.ok) expect(result.problems.every((p) => p.param && p.message)).toBe(true);
        },
      ),
    );
  });
});
