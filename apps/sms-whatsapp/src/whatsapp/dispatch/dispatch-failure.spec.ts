import { GraphError } from '../graph/whatsapp-graph';
import { dispatchFailure } from './dispatch-failure';

describe('dispatchFailure', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  const soon = new Date('2026-01-01T00:01:00Z');

  it("fails a final Graph error with Meta's code normalised", () => {
    const err = new GraphError('Re-engagement message', false, 400, 131047);
    expect(dispatchFailure(err, created, soon, 1)).toEqual({
      error: expect.objectContaining({ code: 'service_window_expired', meta_error_code: '131047' }),
    });
  });

  it('retries a temporary one with a back-off that doubles up to 30 s', () => {
    const err = new GraphError('Service unavailable', true, 503, 2);
    const first = dispatchFailure(err, created, soon, 1) as { retryInMs: number };
    const late = dispatchFailure(err, created, soon, 12) as { retryInMs: number };
    expect(first.retryInMs).toBeGreaterThanOrEqual(800);
    expect(first.retryInMs).toBeLessThanOrEqual(1200);
    expect(late.retryInMs).toBeLessThanOrEqual(36_000);
    expect(late.retryInMs).toBeGreaterThanOrEqual(24_000);
  });

  it("waits at least as long as Meta's Retry-After", () => {
    const err = new GraphError('Too many', true, 429, 130429, null, 20_000);
    expect(dispatchFailure(err, created, soon, 1)).toEqual({ retryInMs: 20_000 });
  });

  it('treats an unknown error as temporary, and gives up after a day', () => {
    expect(dispatchFailure(new Error('socket hang up'), created, soon, 1)).toHaveProperty(
      'retryInMs',
    );
    const dayLater = new Date('2026-01-02T00:00:01Z');
    expect(dispatchFailure(new Error('socket hang up'), created, dayLater, 40)).toEqual({
      error: expect.objectContaining({ code: 'internal_error' }),
    });
  });
});
