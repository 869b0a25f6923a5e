import type { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { PeriodicJob } from '@switchboard/platform';
import type { DataSource } from 'typeorm';
import { purgeIdempotencyRecords } from './idempotent-write';

/** Deletes a service's idempotency records past their retention, every ten minutes. */
export class IdempotencyRecordsPurger extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly retentionHours: number,
  ) {
    super();
  }

  protected work(): Promise<number> {
    return purgeIdempotencyRecords(this.dataSource, this.schema, this.retentionHours);
  }
}

/**
 * The purger of the service whose data source (and schema) is `schema`, keeping records
 * `retentionHours` (its IDEMPOTENCY_TTL_HOURS). Nest runs its start and stop hooks like any
 * provider's.
 */
export function idempotencyPurgerProvider(schema: string, retentionHours: number): Provider {
  return {
    provide: IdempotencyRecordsPurger,
    useFactory: (dataSource: DataSource) =>
      new IdempotencyRecordsPurger(dataSource, schema, retentionHours),
    inject: [getDataSourceToken(schema)],
  };
}
