import { VersionedAnswers } from './versioned-answers';

describe(VersionedAnswers.name, () => {
  const counting = () => {
    let calls = 0;
    return { compute: () => Promise.resolve(++calls), calls: () => calls };
  };

  it('computes once per version, concurrent askers included', async () => {
    const answers = new VersionedAnswers<number>();
    const work = counting();
    const both = await Promise.all([
      answers.answer('q', '7', work.compute),
      answers.answer('q', '7', work.compute),
    ]);
    expect(both).toEqual([1, 1]);
    expect(await answers.answer('q', '8', work.compute)).toBe(2);
    expect(work.calls()).toBe(2);
  });

  it('keeps at most its bound, dropping the oldest', async () => {
    const answers = new VersionedAnswers<number>(2);
    const work = counting();
    for (const key of ['a', 'b', 'c']) await answers.answer(key, '1', work.compute);
    expect(await answers.answer('a', '1', work.compute)).toBe(4);
    expect(await answers.answer('c', '1', work.compute)).toBe(3);
  });

  it('forgets an answer older than its age bound, and never keeps a failure', async () => {
    const stale = new VersionedAnswers<number>(10, -1);
    const work = counting();
    await stale.answer('a', '1', work.compute);
    expect(await stale.answer('a', '1', work.compute)).toBe(2);
    const answers = new VersionedAnswers<number>();
    await expect(answers.answer('a', '1', () => Promise.reject(new Error('no')))).rejects.toThrow();
    expect(await answers.answer('a', '1', work.compute)).toBe(3);
  });
});
