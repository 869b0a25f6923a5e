import type { WhatsAppReactionEvent } from '@switchboard/contracts';
import { GraphError } from '../graph/whatsapp-graph';

/** Attempts of a temporary failure before a reaction fails (or a read receipt is dropped). */
export const DISPATCH_ATTEMPTS = 6;

/** 2 s doubling, at most 5 minutes. */
export function dispatchRetryInMs(attempts: number): number {
  return Math.min(300_000, 2_000 * 2 ** Math.max(0, attempts - 1));
}

/** Meta's codes of a throttle: pair rate (131056), account or app rate (130429, 80007, 4). */
const RATE_LIMIT_CODES = new Set([131056, 130429, 80007, 4]);

/** A failure of a reaction as its log entry carries it (the send vocabulary, less billing). */
export function reactionError(err: unknown, at: Date): NonNullable<WhatsAppReactionEvent['error']> {
  const graph = err instanceof GraphError ? err : null;
  const code =
    graph && (graph.status === 429 || RATE_LIMIT_CODES.has(graph.metaCode ?? -1))
      ? 'rate_limited'
      : graph?.metaCode === 131047
        ? 'service_window_expired'
        : graph && !graph.temporary
          ? 'undeliverable'
          : 'internal_error';
  return {
    code,
    description: err instanceof Error ? err.message : String(err),
    meta_error_code: graph?.metaCode == null ? null : String(graph.metaCode),
    occurred_at: at.toISOString(),
  };
}
