import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PREFERENCE_STATEMENT_EVENT } from '@switchboard/contracts';
import { wakeRelay } from '@switchboard/background';
import { inPgTransaction, isUniqueViolation, pgPoolOf } from '@switchboard/persistence';
import { eventBusFor, metricsRegistry } from '@switchboard/platform';
import type { OutboxEvent } from '@switchboard/platform';
import type { Pool } from 'pg';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { channelStatementOf } from './channel-statement';
import { PREFERENCES_SCHEMA, PreferenceLedger } from './preference-ledger';
import { PreferencesRepository } from './preferences.repository';

/** The durable consumer's name on the JetStream bus: it keeps its place while the service is down. */
const STATEMENTS_CONSUMER = 'preferences-statements';
const SOURCE_EVENT_INDEX = 'preference_transitions_source_event_idx';

const statementsTaken = new Counter({
  name: 'switchboard_preference_statements_total',
  help: "People's own statements the ledger took off the bus, by outcome (recorded, duplicate, unrecordable)",
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/**
 * Records what people said through the channels (`internal.preference.statement`: an SMS STOP or
 * START, later an email unsubscribe) in the ledger, under its rules, each event in a transaction
 * of its own. A batch resolves only when each of its events is recorded (or was before: the
 * event id is on its transition), so a failure has the bus deliver the batch again and nothing
 * is lost; the ones already recorded are then found and skipped.
 */
@Injectable()
export class ChannelStatementsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PreferenceStatements');
  private readonly pool: Pool;
  private unsubscribe?: () => void;

  constructor(
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG)
    private readonly config: VerifyLookupPreferencesConfig,
    @InjectDataSource('verify_lookup_preferences') dataSource: DataSource,
    private readonly ledger: PreferenceLedger,
    private readonly repository: PreferencesRepository,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = eventBusFor(this.config).subscribe(
      PREFERENCE_STATEMENT_EVENT,
      (events) => this.take(events),
      STATEMENTS_CONSUMER,
    );
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  /** In order: a person's STOP then START on one key are recorded as they said them. */
  async take(events: readonly OutboxEvent[]): Promise<void> {
    let recorded = 0;
    try {
      for (const event of events) if (await this.record(event)) recorded++;
    } finally {
      if (recorded > 0) wakeRelay(this.pool, PREFERENCES_SCHEMA);
    }
  }

  /** Whether the event was recorded now (false: recorded before, or unrecordable). */
  private async record(event: OutboxEvent): Promise<boolean> {
    const statement = channelStatementOf(event);
    if ('problem' in statement) {
      // Delivering it again cannot make it recordable, and would hold up every event behind it.
      this.logger.error(
        `statement ${event.id} of workspace ${event.workspaceId} not recorded: ${statement.problem}`,
      );
      statementsTaken.inc({ outcome: 'unrecordable' });
      return false;
    }
    const { key, state } = statement;
    let recorded = false;
    try {
      recorded = await inPgTransaction(this.pool, async (runner) => {
        if (await this.repository.hasTransitionFor(runner, key.workspaceId, event.id)) return false;
        await this.ledger.record(runner, key, state, { sourceEventId: event.id });
        return true;
      });
    } catch (err) {
      // The same event recorded meanwhile by another delivery of it (another process's).
      const duplicate =
        isUniqueViolation(err) &&
        (err as { constraint?: string }).constraint === SOURCE_EVENT_INDEX;
      if (!duplicate) throw err;
    }
    statementsTaken.inc({ outcome: recorded ? 'recorded' : 'duplicate' });
    return recorded;
  }
}
