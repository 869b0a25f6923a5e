import { metricOf } from './email-stats-breakdowns.service';
import { countsOf, deliveryOf, figuresOf, trendPointOf } from './email-stats-figures';

describe('deliveryOf', () => {
  it('takes out-of-band bounces off the delivered and onto the bounces, rates over attempts', () => {
    const delivery = deliveryOf(
      countsOf({ accepted: 10, delivered: 8, bounced: 2, hard: 1, soft: 1, oob_bounces: 2 }),
      true,
    );
    expect(delivery).toMatchObject({
      accepted: 10,
      effective_delivered: 6,
      all_bounces: 4,
      delivery_rate: 0.6,
      bounce_rate: 0.4,
      oob_rate: 0.2,
      bounces: { hard: 1, hard_rate: 0.5, soft_rate: 0.5, block_rate: 0 },
    });
  });

  it('clamps the effective delivered at 0 and the bounce rate at 1; rates without attempts are null', () => {
    expect(deliveryOf(countsOf({ delivered: 1, oob_bounces: 3 }), false)).toMatchObject({
      effective_delivered: 0,
      bounce_rate: 1,
      complaint_rate: null,
    });
    const none = deliveryOf(countsOf({}), false);
    expect(none).not.toHaveProperty('accepted');
    expect([none.delivery_rate, none.bounce_rate, none.bounces.hard_rate]).toEqual([
      null,
      null,
      null,
    ]);
  });
});

describe('figuresOf', () => {
  it('puts engagement rates over the effective delivered, unique non-prefetched opens first', () => {
    const { engagement, latency } = figuresOf(
      { delivered: 4, unique_opens: 3, unique_opens_non_prefetched: 1, unique_clicks: 2 },
      false,
    );
    expect(engagement).toMatchObject({ open_rate: 0.25, click_rate: 0.5, unsubscribe_rate: 0 });
    expect(latency).toEqual({});
  });

  it('reads a sort metric, a bounce type nested under bounces', () => {
    const figures = figuresOf({ delivered: 3, bounced: 1, block: 1, clicks: 5 }, false);
    expect(metricOf(figures, 'bounces.block')).toBe(1);
    expect(metricOf(figures, 'bounces.block_rate')).toBe(1);
    expect(metricOf(figures, 'clicks')).toBe(5);
    expect(metricOf(figures, 'delivery_rate')).toBe(0.75);
  });

  it('makes a trend point of the headline counts and rates', () => {
    expect(trendPointOf('2026-05-01', countsOf({ delivered: 1 }))).toEqual({
      bucket: '2026-05-01',
      delivered: 1,
      bounced: 0,
      delivery_rate: 1,
      bounce_rate: 0,
      complaint_rate: 0,
      open_rate: 0,
      click_rate: 0,
    });
  });
});
