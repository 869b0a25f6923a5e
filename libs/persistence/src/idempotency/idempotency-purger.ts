import type { Provider, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { PeriodicJob } from '@switchboard/platform';
import type { DataSource } from 'typeorm';
import { purgeIdempotencyRecords } from './idempotent-write';

/** Other records that expire with the idempotency records (the gateway's idempotency keys). */
export interface ExpiringRecords {
  /** Deletes what has expired; resolves to how many. */
  purgeExpired(): Promise<number>;
}

/**
 * Deletes a service's idempotency records past their retention, and whatever `also` names,
 * every ten minutes.
 */
export class IdempotencyRecordsPurger extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly retentionHours: number,
    private readonly also: () => ExpiringRecords[] = () => [],
  ) {
    super();
  }

  protected async work(): Promise<number> {
    let purged = await purgeIdempotencyRecords(this.dataSource, this.schema, this.retentionHours);
    for (const records of this.also()) purged += await records.purgeExpired();
    return purged;
  }
}

/**
 * The purger of the service whose data source (and schema) is `schema`, keeping records
 * `retentionHours` (its IDEMPOTENCY_TTL_HOURS). `also`: providers of the service's own modules
 * purged on the same timer (looked up when the purge runs). Nest runs its start and stop hooks
 * like any provider's.
 */
export function idempotencyPurgerProvider(
  schema: string,
  retentionHours: number,
  also: ReadonlyArray<Type<ExpiringRecords>> = [],
): Provider {
  return {
    provide: IdempotencyRecordsPurger,
    useFactory: (dataSource: DataSource, moduleRef: ModuleRef) =>
      new IdempotencyRecordsPurger(dataSource, schema, retentionHours, () =>
        also.map((type) => moduleRef.get(type, { strict: false })),
      ),
    inject: [getDataSourceToken(schema), ModuleRef],
  };
}
