import { normalisedErrorCode, whatsappErrorOf } from './meta-errors';

describe('normalisedErrorCode', () => {
  it.each([
    [131047, 'service_window_expired'],
    [131026, 'undeliverable'],
    [130429, 'rate_limited'],
    [131056, 'rate_limited'],
    [131048, 'rate_limited'],
    [131053, 'media_rejected'],
    [131000, 'internal_error'],
    [132001, 'undeliverable'],
    [null, 'undeliverable'],
  ])('maps Meta code %p to %s', (meta, ours) => {
    expect(normalisedErrorCode(meta)).toBe(ours);
  });
});

describe('whatsappErrorOf', () => {
  it("keeps Meta's code as a string and prefers its details", () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(
      whatsappErrorOf(
        {
          code: 131026,
          title: 'Message undeliverable',
          error_data: { details: 'Not on WhatsApp' },
        },
        at,
      ),
    ).toEqual({
      code: 'undeliverable',
      description: 'Not on WhatsApp',
      meta_error_code: '131026',
      occurred_at: '2026-01-01T00:00:00.000Z',
    });
    expect(whatsappErrorOf(undefined, at)).toMatchObject({ meta_error_code: null });
  });
});
