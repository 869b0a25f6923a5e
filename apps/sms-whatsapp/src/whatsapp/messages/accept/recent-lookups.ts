/** How long a lookup that found something is taken as current without asking again. */
const RECENT_MS = 2000;
/** Entries kept at most (many workspaces' senders and templates); past it the memo starts again. */
const RECENT_LIMIT = 10_000;

/**
 * Lookups a send repeats (its sender, its template) remembered for two seconds: under load the
 * same few are read thousands of times a second. Only what was found is kept; a miss (a 422) is
 * asked again every time. What changes meanwhile is caught later: the dispatcher reads the
 * number again and fails a message whose number is no longer connected.
 */
export class RecentLookups<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  async get(key: string, lookup: () => Promise<T | undefined>): Promise<T | undefined> {
    const now = Date.now();
    const recent = this.entries.get(key);
    if (recent && recent.until > now) return recent.value;
    const value = await lookup();
    if (value !== undefined) {
      if (this.entries.size >= RECENT_LIMIT) this.entries.clear();
      this.entries.set(key, { value, until: now + RECENT_MS });
    }
    return value;
  }
}
