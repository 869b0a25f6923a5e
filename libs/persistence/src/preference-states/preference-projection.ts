import { PREFERENCE_SNAPSHOT_EVENT } from '@switchboard/contracts';
import { metricsRegistry } from '@switchboard/platform';
import type { EventSubscriber, OutboxEvent } from '@switchboard/platform';
import { Histogram } from 'prom-client';
import type { SqlRunner } from '../pagination';
import { applyPreferenceStates, preferenceStatesOf } from './preference-states';
import type { PreferenceStateRow } from './preference-states';

const enforcementLag = new Histogram({
  name: 'switchboard_preference_enforcement_lag_seconds',
  help: "Time from a revocation's or deletion's write in the ledger to its arrival in a channel's projection",
  labelNames: ['consumer'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 30, 300],
  registers: [metricsRegistry],
});

export interface PreferenceProjectionOptions {
  bus: EventSubscriber;
  /** The durable consumer's name (JetStream keeps its place while the service is down). */
  consumer: string;
  runner: SqlRunner;
  schema: string;
  /** The ledger's channels this service sends on. */
  channels: readonly string[];
  logger: { debug(message: string): void };
  /**
   * Runs after each batch is applied, before it is acknowledged, with the statements it carried
   * (a failure delivers the batch again): what the service keeps besides the projection follows.
   */
  afterApply?: (rows: PreferenceStateRow[]) => Promise<void>;
}

/**
 * Follows the preference ledger into `<schema>.preference_states` (ADR 14): each batch of
 * `preference.*` events (and of the ledger's snapshot of its keys, `internal.preference.snapshot`)
 * is applied in one statement before it is acknowledged; a batch that fails is delivered again.
 * Returns the unsubscribe.
 */
export function followPreferenceLedger(options: PreferenceProjectionOptions): () => void {
  const take = async (events: OutboxEvent[]) => {
    const rows = preferenceStatesOf(events, options.channels);
    const moved = await applyPreferenceStates(options.runner, options.schema, rows);
    await options.afterApply?.(rows);
    const now = Date.now();
    for (const row of rows)
      if (row.status !== 'granted')
        enforcementLag
          .labels(options.consumer)
          .observe(Math.max(0, now - row.effective_at.getTime()) / 1000);
    options.logger.debug(`${events.length} preference event(s), ${moved} key(s) moved`);
  };
  const unsubscribes = [
    options.bus.subscribe('preference.', take, options.consumer),
    // The ledger's keys as they stood when enforcement arrived (its migration republishes them).
    options.bus.subscribe(PREFERENCE_SNAPSHOT_EVENT, take, `${options.consumer}-snapshot`),
  ];
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
}
