import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@switchboard/platform';
import { WEBHOOKS_CONFIG } from './config/webhooks.config';
import type { WebhooksConfig } from './config/webhooks.config';
import { DeliveriesRepository } from './delivery/deliveries.repository';

/**
 * Deletes events received before WEBHOOKS_EVENT_RETENTION_DAYS, with their deliveries and
 * attempts, every hour: what is older can no longer be replayed or listed.
 */
@Injectable()
export class EventRetention extends PeriodicJob {
  protected readonly everyMs = 3_600_000;

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    private readonly repository: DeliveriesRepository,
  ) {
    super();
  }

  protected work(): Promise<number> {
    return this.repository.purgeEvents(this.config.WEBHOOKS_EVENT_RETENTION_DAYS);
  }
}
