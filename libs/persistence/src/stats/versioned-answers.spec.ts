import { VersionedAnswers } from './versioned-answers';

describe(VersionedAnswers.name, () => {
  it('answers only at the version it was computed at', () => {
    const answers = new VersionedAnswers<number>();
    answers.set('q', '7', 1);
    expect(answers.get('q', '7')).toBe(1);
    expect(answers.get('q', '8')).toBeUndefined();
    expect(answers.get('q', '7')).toBeUndefined();
  });

  it('keeps at most its bound, dropping the oldest', () => {
    const answers = new VersionedAnswers<number>(2);
    answers.set('a', '1', 1);
    answers.set('b', '1', 2);
    answers.set('c', '1', 3);
    expect([answers.get('a', '1'), answers.get('b', '1'), answers.get('c', '1')]).toEqual([
      undefined,
      2,
      3,
    ]);
  });

  it('forgets an answer older than its age bound', () => {
    const answers = new VersionedAnswers<number>(10, -1);
    answers.set('a', '1', 1);
    expect(answers.get('a', '1')).toBeUndefined();
  });
});
