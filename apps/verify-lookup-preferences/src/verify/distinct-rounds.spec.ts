import { distinctRounds } from './distinct-rounds';

describe(distinctRounds.name, () => {
  it('puts each key once in a round, in the order given, keeping positions', () => {
    const rounds = distinctRounds(['a', 'b', 'a', 'c', 'a', 'b'], (key) => key);
    expect(rounds.map((round) => round.map(({ item, index }) => `${item}${index}`))).toEqual([
      ['a0', 'b1', 'c3'],
      ['a2', 'b5'],
      ['a4'],
    ]);
  });
});
