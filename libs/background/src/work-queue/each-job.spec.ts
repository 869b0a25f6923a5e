import { forEachJob } from './each-job';

describe(forEachJob.name, () => {
  it('waits for every item before failing with the first failure', async () => {
    const finished: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const run = forEachJob(['fails', 'slow', 'quick'], async (item) => {
      if (item === 'fails') throw new Error('commit failed');
      if (item === 'slow') await slow;
      finished.push(item);
    });
    let settled = false;
    void run.catch(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect(finished).toEqual(['quick']);
    release();
    await expect(run).rejects.toThrow('commit failed');
    expect(finished).toEqual(['quick', 'slow']);
  });

  it('resolves when every item succeeds', async () => {
    await expect(forEachJob([1, 2], () => Promise.resolve())).resolves.toBeUndefined();
  });
});
