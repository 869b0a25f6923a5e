/**
 * Answers of stats queries kept per rollup version (ADR 20): a stream's `stats_freshness.version`
 * moves with every fold and every rebuild in the same transaction as the rollups, so an answer
 * computed at a version is exactly what any later request would compute while the version stays.
 * Dashboards asking the same breakdown share one computation per version. Bounded: the oldest
 * entries go first, and none is kept longer than `maxAgeMs`.
 */
export class VersionedAnswers<T> {
  private readonly entries = new Map<string, { version: string; at: number; answer: T }>();

  constructor(
    private readonly maxEntries = 500,
    private readonly maxAgeMs = 300_000,
  ) {}

  get(key: string, version: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || Date.now() - entry.at > this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.answer;
  }

  set(key: string, version: string, answer: T): void {
    this.entries.delete(key);
    this.entries.set(key, { version, at: Date.now(), answer });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
