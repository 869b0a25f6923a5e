/**
 * Answers of stats queries kept per rollup version (ADR 18): a stream's `stats_freshness.version`
 * moves with every fold and every rebuild in the same transaction as the rollups, so an answer
 * computed at a version is exactly what any later request would compute while the version stays.
 * Dashboards asking the same breakdown share one computation per version, concurrent askers
 * included (they wait for the one in flight). Bounded: the oldest entries go first, none is kept
 * longer than `maxAgeMs`, and a failed computation is not kept.
 */
export class VersionedAnswers<T> {
  private readonly entries = new Map<string, { version: string; at: number; answer: Promise<T> }>();

  constructor(
    private readonly maxEntries = 500,
    private readonly maxAgeMs = 300_000,
  ) {}

  /** The answer to `key` at `version`: the one kept, or `compute()`'s, then kept. */
  answer(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && entry.version === version && Date.now() - entry.at <= this.maxAgeMs)
      return entry.answer;
    const answer = compute();
    this.entries.delete(key);
    this.entries.set(key, { version, at: Date.now(), answer });
    answer.catch(() => {
      if (this.entries.get(key)?.answer === answer) this.entries.delete(key);
    });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return answer;
  }
}
