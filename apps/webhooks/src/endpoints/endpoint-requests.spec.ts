import { WEBHOOK_EVENT_TYPES } from '@switchboard/contracts';
import {
  checkedAttempts,
  checkedCreate,
  checkedReplay,
  checkedTest,
  checkedUpdate,
} from './endpoint-requests';
import { validationFailure } from '@switchboard/testing';

const ID = 'whk_0123456789abcdefghijklmnop';
const valid = { url: 'https://hooks.example.com/bird', events: ['email.delivered'] };

const failure = validationFailure;

const params = (run: () => unknown): string[] => failure(run).map((detail) => detail.param);

describe(checkedCreate.name, () => {
  it.each([
    'hooks.example.com/bird',
    '/bird',
    'ftp://example.com/x',
    'javascript:alert(1)',
    'https://',
  ])('refuses %s: not an absolute http(s) URL', (url) => {
    expect(failure(() => checkedCreate({ ...valid, url }))).toEqual([
      { param: 'url', message: 'must be an absolute https URL' },
    ]);
  });

  it('lets http through: https only is checked with the settings (WEBHOOKS_ALLOW_PRIVATE_URLS)', () => {
    expect(checkedCreate({ ...valid, url: 'http://localhost:3000/hook' }).url).toBe(
      'http://localhost:3000/hook',
    );
  });

  it('names each event type outside the catalog by its index', () => {
    const events = ['email.delivered', 'email.opened', 'sms.sent', 'email.nope', 'x'];
    expect(failure(() => checkedCreate({ ...valid, events }))).toEqual([
      { param: 'events[3]', message: 'must be an event type of the catalog' },
      { param: 'events[4]', message: 'must be an event type of the catalog' },
    ]);
  });

  it('accepts every type of the catalog and drops duplicates keeping the first order', () => {
    expect(checkedCreate({ ...valid, events: [...WEBHOOK_EVENT_TYPES] }).events).toEqual([
      ...WEBHOOK_EVENT_TYPES,
    ]);
    const events = ['sms.sent', 'email.delivered', 'sms.sent', 'domain.verified'];
    expect(checkedCreate({ ...valid, events }).events).toEqual([
      'sms.sent',
      'email.delivered',
      'domain.verified',
    ]);
  });

  it('reports a bad url and a bad event type in one answer', () => {
    expect(params(() => checkedCreate({ url: 'nope', events: ['nope'] }))).toEqual([
      'url',
      'events[0]',
    ]);
  });
});

describe(checkedUpdate.name, () => {
  it('applies the create rules to the fields sent only', () => {
    expect(checkedUpdate({ webhook_id: ID })).toEqual({ webhook_id: ID });
    expect(checkedUpdate({ webhook_id: ID, events: ['sms.sent', 'sms.sent'] }).events).toEqual([
      'sms.sent',
    ]);
    expect(params(() => checkedUpdate({ webhook_id: ID, url: 'mailto:a@example.com' }))).toEqual([
      'url',
    ]);
    expect(
      params(() => checkedUpdate({ webhook_id: ID, events: ['email.delivered', 'nope'] })),
    ).toEqual(['events[1]']);
  });
});

describe(checkedTest.name, () => {
  it('refuses a type outside the catalog naming event_type', () => {
    expect(checkedTest({ webhook_id: ID, event_type: 'whatsapp.read' }).event_type).toBe(
      'whatsapp.read',
    );
    expect(failure(() => checkedTest({ webhook_id: ID, event_type: 'nope.nothing' }))).toEqual([
      { param: 'event_type', message: 'must be an event type of the catalog' },
    ]);
  });
});

describe(checkedAttempts.name, () => {
  it('answers before and after as UTC ISO 8601 instants', () => {
    expect(
      checkedAttempts({
        webhook_id: ID,
        limit: 50,
        before: '2026-11-23T12:00:00+02:00',
        after: '2026-11-22T08:30:00.5Z',
      }),
    ).toEqual({
      webhook_id: ID,
      limit: 50,
      before: '2026-11-23T10:00:00.000Z',
      after: '2026-11-22T08:30:00.500Z',
    });
  });

  it('refuses what is not an ISO 8601 date-time with a zone, naming each', () => {
    const request = { webhook_id: ID, limit: 50 };
    expect(
      params(() => checkedAttempts({ ...request, before: 'yesterday', after: '2026-11-22' })),
    ).toEqual(['before', 'after']);
    expect(params(() => checkedAttempts({ ...request, after: '2026-02-30T00:00:00Z' }))).toEqual([
      'after',
    ]);
  });
});

describe(checkedReplay.name, () => {
  it('answers since and until as UTC ISO 8601 instants, leaving absent ones to the defaults', () => {
    expect(
      checkedReplay({
        webhook_id: ID,
        since: '2026-11-23T00:00:00+01:00',
        until: '2026-11-23T06:00:00Z',
      }),
    ).toEqual({
      webhook_id: ID,
      since: '2026-11-22T23:00:00.000Z',
      until: '2026-11-23T06:00:00.000Z',
    });
    expect(checkedReplay({ webhook_id: ID })).toEqual({ webhook_id: ID });
  });

  it('refuses since at or after until naming since, and what is not a date-time', () => {
    expect(
      failure(() =>
        checkedReplay({
          webhook_id: ID,
          since: '2026-11-23T06:00:00Z',
          until: '2026-11-23T00:00:00Z',
        }),
      ),
    ).toEqual([{ param: 'since', message: 'must be before until' }]);
    expect(params(() => checkedReplay({ webhook_id: ID, since: 'last week' }))).toEqual(['since']);
  });
});
