import { Inject, Injectable } from '@nestjs/common';
import { purgeIdempotencyRecords } from '@switchboard/persistence';
import { PeriodicJob } from '@switchboard/platform';
import { REALTIME_CONFIG } from '../config/realtime.config';
import type { RealtimeConfig } from '../config/realtime.config';
import { RealtimeAppsRepository } from './realtime-apps.repository';

/** Deletes the service's idempotency records past their retention, every ten minutes. */
@Injectable()
export class IdempotencyPurger extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
    private readonly repository: RealtimeAppsRepository,
  ) {
    super();
  }

  protected work(): Promise<number> {
    return purgeIdempotencyRecords(
      this.repository.dataSource,
      'realtime',
      this.config.IDEMPOTENCY_TTL_HOURS,
    );
  }
}
