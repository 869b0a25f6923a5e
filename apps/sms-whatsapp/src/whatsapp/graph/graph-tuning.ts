/** How hard the client tries; tests shorten it. */
export interface GraphClientTuning {
  /** Per attempt of a Graph call. */
  timeoutMs: number;
  /** Per attempt of a media download (up to 100 MB). */
  downloadTimeoutMs: number;
  /** In-process retries of a 429, a 5xx or a refused connection. */
  retries: number;
  /** Waiting between attempts never adds up to more than this: the work queue retries later. */
  retryBudgetMs: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  /** Per `phone_number_id` (Meta's standard throughput). */
  messagesPerSecond: number;
  maxDownloadBytes: number;
}

export const DEFAULT_GRAPH_TUNING: GraphClientTuning = {
  timeoutMs: 10_000,
  downloadTimeoutMs: 60_000,
  retries: 3,
  retryBudgetMs: 4_000,
  backoffBaseMs: 250,
  backoffCapMs: 2_000,
  messagesPerSecond: 80,
  maxDownloadBytes: 100 * 1024 * 1024,
};

/** Optional overrides of `DEFAULT_GRAPH_TUNING`. */
export const WHATSAPP_GRAPH_TUNING = Symbol('WHATSAPP_GRAPH_TUNING');
