import { CarrierSubmitError } from '../carriers/sms-carrier';
import { GIVE_UP_AFTER_MS, submitFailure } from './submit-failure';

const created = new Date('2026-11-26T12:00:00Z');
const later = (ms: number) => new Date(created.getTime() + ms);

describe(submitFailure.name, () => {
  const down = new CarrierSubmitError('bind down', true, 'provider_unavailable');

  it('retries a temporary refusal with doubling back-off, capped at 10 minutes', () => {
    expect(submitFailure(down, created, later(1000), 1)).toEqual({ retryInMs: 5000 });
    expect(submitFailure(down, created, later(1000), 3)).toEqual({ retryInMs: 20_000 });
    expect(submitFailure(down, created, later(1000), 40)).toEqual({ retryInMs: 600_000 });
  });

  it('fails a message still refused after a day as provider_unavailable', () => {
    expect(submitFailure(down, created, later(GIVE_UP_AFTER_MS), 200)).toEqual({
      error: expect.objectContaining({ code: 'provider_unavailable', carrier_error_code: null }),
    });
  });

  it("fails a permanent refusal at once with the carrier's code and command_status", () => {
    const refused = new CarrierSubmitError(
      'invalid destination',
      false,
      'invalid_destination',
      0x0b,
    );
    expect(submitFailure(refused, created, later(10), 1)).toEqual({
      error: {
        code: 'invalid_destination',
        description: 'invalid destination',
        carrier_error_code: '0x0000000b',
        occurred_at: later(10).toISOString(),
      },
    });
  });
});
