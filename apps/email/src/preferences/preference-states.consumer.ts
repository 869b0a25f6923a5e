import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { followPreferenceLedger, poolRunner } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';

/** The durable consumer's name on the JetStream bus. */
const CONSUMER = 'email-preferences';

/**
 * Keeps `email.preference_states` following the preference ledger's email statements (ADR 14),
 * so processing checks a recipient's preference with a local read, never a call to the ledger.
 */
@Injectable()
export class EmailPreferenceStatesConsumer
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('EmailPreferences');
  private unsubscribe?: () => void;

  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    @InjectDataSource('email') private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = followPreferenceLedger({
      bus: eventBusFor(this.config),
      consumer: CONSUMER,
      runner: poolRunner(this.dataSource),
      schema: 'email',
      channels: ['email'],
      logger: this.logger,
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }
}
