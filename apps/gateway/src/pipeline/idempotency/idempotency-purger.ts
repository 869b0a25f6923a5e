import { Injectable } from '@nestjs/common';
import { PeriodicJob } from '@switchboard/platform';
import { IdempotencyStore } from './idempotency.store';

/** Deletes expired idempotency keys every ten minutes. */
@Injectable()
export class IdempotencyPurger extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(private readonly store: IdempotencyStore) {
    super();
  }

  protected work(): Promise<number> {
    return this.store.purgeExpired();
  }
}
