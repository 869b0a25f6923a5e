import fc from 'fast-check';
import {
  bucketsOf,
  previousWindow,
  resolveStatsWindow,
  singleDimensionFilter,
  StatsQueryProblem,
} from './stats-query';

const NOW = Date.UTC(2026, 4, 25, 13, 42);

function problemOf(work: () => unknown): StatsQueryProblem {
  try {
    work();
  } catch (error) {
    if (error instanceof StatsQueryProblem) return error;
    throw error;
  }
  throw new Error('no problem raised');
}

describe(resolveStatsWindow.name, () => {
  it('reads calendar days in UTC by default, both bounds included', () => {
    const window = resolveStatsWindow(
      { from: '2026-05-01', to: '2026-05-25' },
      { forms: 'either', now: NOW },
    );
    expect(window).toMatchObject({
      grain: 'day',
      from: '2026-05-01',
      to: '2026-05-25',
      length: 25,
    });
    expect(window.start.toISOString()).toBe('2026-05-01T00:00:00.000Z');
    expect(window.end.toISOString()).toBe('2026-05-26T00:00:00.000Z');
  });

  it('makes a calendar day local to the timezone, sub-hour offsets included', () => {
    const window = resolveStatsWindow(
      { from: '2026-05-01', to: '2026-05-01', timezone: 'Asia/Kathmandu' },
      { forms: 'day', now: NOW },
    );
    expect(window.start.toISOString()).toBe('2026-04-30T18:15:00.000Z');
    expect(window.end.toISOString()).toBe('2026-05-01T18:15:00.000Z');
  });

  it('rounds instants down to the hour and includes both hours', () => {
    const window = resolveStatsWindow(
      { from: '2026-05-01T10:59:59Z', to: '2026-05-01T12:00:00Z' },
      { forms: 'hour', now: NOW },
    );
    expect(window).toMatchObject({
      grain: 'hour',
      from: '2026-05-01T10:00:00Z',
      to: '2026-05-01T12:00:00Z',
      length: 3,
    });
  });

  it('defaults to 30 days before today, or 168 hours before the current hour', () => {
    expect(resolveStatsWindow({}, { forms: 'either', now: NOW })).toMatchObject({
      from: '2026-04-25',
      to: '2026-05-25',
      length: 31,
    });
    expect(resolveStatsWindow({}, { forms: 'hour', now: NOW })).toMatchObject({
      to: '2026-05-25T13:00:00Z',
      length: 169,
    });
  });

  it('refuses mixed forms with E01150 naming to', () => {
    const problem = problemOf(() =>
      resolveStatsWindow({ from: '2026-05-01', to: '2026-05-02T00:00:00Z' }, { forms: 'either' }),
    );
    expect(problem.code).toBe('E01150');
    expect(problem.details[0].param).toBe('to');
  });

  it('refuses a day window over 365 days and an hour window over 720 hours with E01151', () => {
    expect(
      problemOf(() =>
        resolveStatsWindow({ from: '2025-01-01', to: '2026-01-01' }, { forms: 'day' }),
      ).code,
    ).toBe('E01151');
    expect(
      resolveStatsWindow({ from: '2025-01-01', to: '2025-12-31' }, { forms: 'day' }).length,
    ).toBe(365);
    expect(
      problemOf(() =>
        resolveStatsWindow(
          { from: '2026-01-01T00:00:00Z', to: '2026-01-31T00:00:00Z' },
          { forms: 'hour' },
        ),
      ).code,
    ).toBe('E01151');
    expect(
      resolveStatsWindow(
        { from: '2026-01-01T00:00:00Z', to: '2026-01-30T23:00:00Z' },
        { forms: 'hour' },
      ).length,
    ).toBe(720);
  });

  it('refuses from after to (E01152), an offset with a timezone (E01155), an unknown zone (E01001)', () => {
    expect(
      problemOf(() =>
        resolveStatsWindow({ from: '2026-05-02', to: '2026-05-01' }, { forms: 'day' }),
      ).code,
    ).toBe('E01152');
    const offset = problemOf(() =>
      resolveStatsWindow(
        { from: '2026-05-01T00:00:00+05:45', timezone: 'Asia/Kathmandu' },
        { forms: 'hour' },
      ),
    );
    expect(offset).toMatchObject({ code: 'E01155', details: [{ param: 'from' }] });
    expect(
      problemOf(() => resolveStatsWindow({ timezone: 'Mars/Olympus' }, { forms: 'day' })).details[0]
        .param,
    ).toBe('timezone');
  });

  it('answers every generated bound either with a window or a problem naming a parameter', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.constantFrom('day', 'hour', 'either' as const),
        (from, to, forms) => {
          try {
            resolveStatsWindow({ from, to }, { forms });
          } catch (error) {
            expect(error).toBeInstanceOf(StatsQueryProblem);
            expect((error as StatsQueryProblem).details[0].param).toMatch(/^(from|to|timezone)$/);
          }
        },
      ),
    );
  });
});

describe(previousWindow.name, () => {
  it('is the equal-length window ending the day before', () => {
    const window = resolveStatsWindow({ from: '2026-05-01', to: '2026-05-25' }, { forms: 'day' });
    expect(previousWindow(window)).toMatchObject({
      from: '2026-04-06',
      to: '2026-04-30',
      length: 25,
    });
  });

  it('is the equal-length window ending the hour before', () => {
    const window = resolveStatsWindow(
      { from: '2026-05-01T10:00:00Z', to: '2026-05-01T11:00:00Z' },
      { forms: 'hour' },
    );
    expect(previousWindow(window)).toMatchObject({
      from: '2026-05-01T08:00:00Z',
      to: '2026-05-01T09:00:00Z',
    });
  });
});

describe(bucketsOf.name, () => {
  it('lists every day or hour of the window in order', () => {
    expect(
      bucketsOf(resolveStatsWindow({ from: '2026-02-27', to: '2026-03-01' }, { forms: 'day' })),
    ).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(
      bucketsOf(
        resolveStatsWindow(
          { from: '2026-05-01T23:00:00Z', to: '2026-05-02T00:00:00Z' },
          { forms: 'hour' },
        ),
      ),
    ).toEqual(['2026-05-01T23:00:00Z', '2026-05-02T00:00:00Z']);
  });
});

describe(singleDimensionFilter.name, () => {
  it('takes one filter and refuses two with E01153 naming both', () => {
    expect(singleDimensionFilter({ country: 'GB' }, ['originator', 'country'])).toEqual({
      dimension: 'country',
      value: 'GB',
    });
    expect(singleDimensionFilter({}, ['originator', 'country'])).toBeUndefined();
    const problem = problemOf(() =>
      singleDimensionFilter({ country: 'GB', originator: 'Acme' }, ['originator', 'country']),
    );
    expect(problem.code).toBe('E01153');
    expect(problem.details.map((d) => d.param)).toEqual(['originator', 'country']);
  });
});
