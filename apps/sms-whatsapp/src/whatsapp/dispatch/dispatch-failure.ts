import type { WhatsAppError } from '@switchboard/contracts';
import { GraphError } from '../graph/whatsapp-graph';
import { whatsappErrorOf } from '../messages/meta-errors';

/** How long a message waits for Meta to come back before it fails. */
const GIVE_UP_MS = 24 * 3_600_000;
const BASE_MS = 1_000;
const CAP_MS = 30_000;

/**
 * What a failed Graph call means for the message: a temporary one (429, 5xx, a time-out, Meta
 * unreachable) is tried again with back-off (at most 30 s apart, sooner when Meta says when)
 * until a day has passed; a final one fails the message with Meta's code normalised.
 */
export function dispatchFailure(
  err: unknown,
  createdAt: Date,
  now: Date,
  attempts: number,
): { retryInMs: number } | { error: WhatsAppError } {
  const graph =
    err instanceof GraphError
      ? err
      : new GraphError((err as Error)?.message ?? String(err), true, 0, null);
  if (!graph.temporary)
    return {
      error: whatsappErrorOf({ code: graph.metaCode, message: graph.message }, now),
    };
  if (now.getTime() - createdAt.getTime() >= GIVE_UP_MS)
    return {
      error: {
        code: graph.status === 429 ? 'rate_limited' : 'internal_error',
        description: `WhatsApp could not be reached for 24 hours: ${graph.message}`,
        meta_error_code: graph.metaCode === null ? null : String(graph.metaCode),
        occurred_at: now.toISOString(),
      },
    };
  const backoff = Math.min(CAP_MS, BASE_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 10));
  const jittered = Math.round(backoff * (0.8 + Math.random() * 0.4));
  return { retryInMs: Math.max(jittered, graph.retryAfterMs ?? 0) };
}
