import fc from 'fast-check';
import { normaliseBroadcastRequest, scheduleProblem } from './broadcast-request.normaliser';

const now = new Date('2030-01-01T00:00:00Z');

describe(normaliseBroadcastRequest.name, () => {
  it('turns a create into stored fields: address forms, tags, category, send and schedule', () => {
    const result = normaliseBroadcastRequest(
      {
        from: 'Acme <News@Acme.test>',
        audience_id: 'adn_01krdgeqcxet5s7t44vh8rt9mg',
        template: { id: 'emt_01krdgeqcxet5s7t44vh8rt9mg' },
        reply_to: [{ email: 'help@acme.test', name: 'Help' }],
        tags: [{ name: 'campaign', value: 'spring' }],
        category: 'transactional',
        send: true,
        scheduled_at: '2030-01-01T02:00:00+01:00',
      },
      'create',
      now,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        changes: {
          from: { email: 'news@acme.test', name: 'Acme' },
          audience_id: 'adn_01krdgeqcxet5s7t44vh8rt9mg',
          template_id: 'emt_01krdgeqcxet5s7t44vh8rt9mg',
          reply_to: [{ email: 'help@acme.test', name: 'Help' }],
          tags: [{ name: 'campaign', value: 'spring' }],
          category: 'transactional',
        },
        send: true,
        scheduledAt: new Date('2030-01-01T01:00:00Z'),
      },
    });
  });

  it('drops List-Unsubscribe and List-Unsubscribe-Post whatever their case, and keeps the rest', () => {
    const result = normaliseBroadcastRequest(
      {
        headers: {
          'List-Unsubscribe': '<mailto:u@acme.test>',
          'LIST-UNSUBSCRIBE-POST': 'List-Unsubscribe=One-Click',
          'X-Campaign': 'spring',
        },
      },
      'create',
      now,
    );
    expect(result.ok && result.value.changes.headers).toEqual({ 'X-Campaign': 'spring' });
  });

  it('reports every problem at once with its param', () => {
    const result = normaliseBroadcastRequest(
      {
        subject: 'x',
        from: 'nope',
        audience_id: 'aud_1',
        template: { id: 'x', language: 'en' },
        tags: [{ name: 'a b', value: 'c' }],
        headers: { From: 'x@y.z', 'X-A': 'a\nb' },
        metadata: { big: 'x'.repeat(3000) },
        category: 'spam',
        track_opens: 'yes',
      },
      'create',
      now,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.details.map((d) => d.param)).toEqual(
      expect.arrayContaining([
        'subject',
        'audience_id',
        'template.id',
        'template.language',
        'tags[0].name',
        'headers.From',
        'headers.X-A',
        'metadata',
        'category',
        'track_opens',
      ]),
    );
  });

  it('on update, null clears template, reply_to and ip_pool_id; send and scheduled_at are unknown', () => {
    const cleared = normaliseBroadcastRequest(
      { template: null, reply_to: null, ip_pool_id: null },
      'update',
      now,
    );
    expect(cleared).toEqual({
      ok: true,
      value: { changes: { template_id: null, reply_to: [], ip_pool_id: null }, send: false },
    });
    const refused = normaliseBroadcastRequest({ send: true, scheduled_at: 'x' }, 'update', now);
    expect(!refused.ok && refused.details.map((d) => d.param)).toEqual(['send', 'scheduled_at']);
  });

  it('never throws, whatever the body', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.constantFrom<'create' | 'update'>('create', 'update'),
        (body, mode) => {
          const result = normaliseBroadcastRequest(body, mode, now);
          expect(typeof result.ok).toBe('boolean');
        },
      ),
    );
  });
});

describe(scheduleProblem.name, () => {
  it('takes 30 seconds to 365 days ahead, with a time zone', () => {
    expect(scheduleProblem('2030-01-01T00:00:31Z', now)).toEqual(new Date('2030-01-01T00:00:31Z'));
    expect(scheduleProblem('2030-01-01T00:00:29Z', now)).toMatch(/at least 30 seconds/);
    expect(scheduleProblem('2031-01-02T00:00:00Z', now)).toMatch(/at most 365 days/);
    expect(scheduleProblem('2030-01-02T00:00:00', now)).toMatch(/time zone/);
    expect(scheduleProblem(42, now)).toMatch(/RFC 3339/);
  });
});
