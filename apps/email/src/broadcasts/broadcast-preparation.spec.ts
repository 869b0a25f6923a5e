import { JobLeaseLostError } from '@switchboard/background';
import type { Job } from '@switchboard/background';
import { BroadcastPreparation, GIVE_UP_AFTER } from './broadcast-preparation';

describe('BroadcastPreparation.run', () => {
  const failing = (err: Error) => {
    const fail = jest.fn().mockResolvedValue(undefined);
    const preparation = new BroadcastPreparation(
      { EMAIL_JOB_LEASE_SECONDS: 60 } as never,
      { driver: { master: {} } } as never,
      { byId: jest.fn().mockResolvedValue(undefined) } as never,
      {} as never,
      { step: jest.fn().mockRejectedValue(err), fail } as never,
      {} as never,
      {} as never,
      {} as never,
    );
    return { preparation, fail };
  };
  const job = (attempts: number) =>
    ({ attempts, payload: { broadcast_id: 'eb_1' } }) as unknown as Job<{ broadcast_id: string }>;

  it('leaves an unexpected failure to the queue to retry, then fails the broadcast internal_error', async () => {
    const { preparation, fail } = failing(new Error('boom'));
    await expect(preparation.run(job(GIVE_UP_AFTER - 1))).rejects.toThrow('boom');
    expect(fail).not.toHaveBeenCalled();
    await preparation.run(job(GIVE_UP_AFTER));
    expect(fail).toHaveBeenCalledWith(
      expect.anything(),
      'eb_1',
      'internal_error',
      expect.stringContaining('boom'),
    );
  });

  it('never fails a broadcast whose job another worker took over', async () => {
    const { preparation, fail } = failing(new JobLeaseLostError('job_1'));
    await expect(preparation.run(job(GIVE_UP_AFTER + 5))).rejects.toBeInstanceOf(JobLeaseLostError);
    expect(fail).not.toHaveBeenCalled();
  });
});
