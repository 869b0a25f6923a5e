import { CommitBatcher, writeTogetherOrAlone } from './commit-batcher';

describe(CommitBatcher.name, () => {
  it('commits what was added together at once, and what comes during a commit in the next one', async () => {
    const commits: number[][] = [];
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = new CommitBatcher<number>(async (items) => {
      commits.push(items);
      if (commits.length === 1) await gate;
    });
    const first = [batcher.add(1), batcher.add(2)];
    await new Promise((resolve) => setImmediate(resolve));
    const later = [batcher.add(3), batcher.add(4), batcher.add(5)];
    release();
    await Promise.all([...first, ...later]);
    expect(commits).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('rejects every item of a failed commit with its error and goes on with the next', async () => {
    let fail = true;
    const batcher = new CommitBatcher<string>(() =>
      fail ? Promise.reject(new Error('database away')) : Promise.resolve(),
    );
    await expect(batcher.add('a')).rejects.toThrow('database away');
    fail = false;
    await expect(batcher.add('b')).resolves.toBeUndefined();
  });
});

describe(`${CommitBatcher.name} with overlap`, () => {
  it('starts the next commit while one runs, and never runs more than `overlap` at once', async () => {
    const commits: number[][] = [];
    const gates: Array<() => void> = [];
    let running = 0;
    let most = 0;
    const batcher = new CommitBatcher<number>(async (items) => {
      commits.push(items);
      most = Math.max(most, ++running);
      await new Promise<void>((resolve) => gates.push(resolve));
      running--;
    }, 2);
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const added = [batcher.add(1), batcher.add(2)];
    await turn();
    added.push(batcher.add(3));
    await turn();
    added.push(batcher.add(4), batcher.add(5));
    await turn();
    // Two commits hold their places: 4 and 5 wait for one of them.
    expect(commits).toEqual([[1, 2], [3]]);
    gates.shift()?.();
    await turn();
    expect(commits).toEqual([[1, 2], [3], [4, 5]]);
    while (gates.length > 0 || commits.flat().length < 5) {
      gates.shift()?.();
      await turn();
    }
    await Promise.all(added);
    expect(most).toBe(2);
  });
});

describe(`${CommitBatcher.name} settling items one by one`, () => {
  it('rejects only the items the commit reports as failed', async () => {
    const batcher = new CommitBatcher<string>((items) =>
      Promise.resolve(
        items.map((item) => (item === 'bad' ? new Error(`cannot store ${item}`) : undefined)),
      ),
    );
    const outcomes = await Promise.allSettled([
      batcher.add('a'),
      batcher.add('bad'),
      batcher.add('b'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('cannot store bad'));
  });
});

describe(writeTogetherOrAlone.name, () => {
  it('writes the items together when it can, and each alone when together fails', async () => {
    const writes: string[][] = [];
    const write = (items: string[]) => {
      writes.push(items);
      return items.includes('bad')
        ? Promise.reject(new Error(`refused ${items.join(',')}`))
        : Promise.resolve();
    };
    await expect(writeTogetherOrAlone(['a', 'b'], write)).resolves.toEqual([]);
    const answers = await writeTogetherOrAlone(['a', 'bad', 'c'], write);
    expect(answers).toEqual([undefined, new Error('refused bad'), undefined]);
    expect(writes).toEqual([['a', 'b'], ['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
    await expect(writeTogetherOrAlone(['bad'], write)).rejects.toThrow('refused bad');
  });
});

describe(`${CommitBatcher.name} adding persistently`, () => {
  it('records an item again after failed commits, and gives up at once when told to', async () => {
    let failures = 2;
    const committed: string[][] = [];
    const batcher = new CommitBatcher<string>((items) => {
      if (failures-- > 0) return Promise.reject(new Error('connection lost'));
      committed.push(items);
      return Promise.resolve();
    });
    const tries: number[] = [];
    await batcher.addPersistently('sent', (_err, attempt) => tries.push(attempt) > 0);
    expect(tries).toEqual([1, 2]);
    expect(committed).toEqual([['sent']]);

    failures = 1;
    await expect(batcher.addPersistently('failed', () => false)).rejects.toThrow('connection lost');
  });
});
