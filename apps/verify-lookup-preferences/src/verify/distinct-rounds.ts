/**
 * A batch split into rounds in which each key appears once (with its position in the batch):
 * one statement updates a row once, so a key twice in a batch waits for the next round.
 */
export function distinctRounds<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
): Array<Array<{ item: T; index: number }>> {
  const rounds: Array<Array<{ item: T; index: number }>> = [];
  const seen: Array<Set<string>> = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    let round = seen.findIndex((keys) => !keys.has(key));
    if (round < 0) {
      round = rounds.length;
      rounds.push([]);
      seen.push(new Set());
    }
    rounds[round].push({ item, index });
    seen[round].add(key);
  });
  return rounds;
}
