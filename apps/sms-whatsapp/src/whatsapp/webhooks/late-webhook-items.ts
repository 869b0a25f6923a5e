import type { Job } from '@switchboard/background';
import type { SqlRunner } from '@switchboard/persistence';

/** Tries before what a webhook named and still matches nothing is given up (about a minute). */
const ATTEMPTS = 6;

/**
 * Ends a job of webhook items Meta delivered before what they name was recorded (late statuses,
 * early reactions), in the caller's transaction: done when nothing is `left` or its tries are
 * spent, else tried again with what is left, a little later each time.
 */
export async function settleLateItems<P>(
  tx: SqlRunner,
  job: Job<P>,
  left: readonly unknown[],
  rest: () => P,
): Promise<void> {
  if (left.length === 0 || job.attempts >= ATTEMPTS) await job.complete(tx);
  else await job.retryAt(tx, new Date(Date.now() + 2_000 * job.attempts), rest());
}
