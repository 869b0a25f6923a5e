import { Module } from '@nestjs/common';
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { ServiceName } from '@switchboard/contracts';
import { SealedBox, ServiceHealthModule } from '@switchboard/platform';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { serviceTypeOrmOptions } from '../data-source';
import type { ServiceDatabase } from '../data-source';
import { idempotencyPurgerProvider } from '../idempotency/idempotency-purger';
import type { ExpiringRecords } from '../idempotency/idempotency-purger';
import { IdempotentWrites } from '../idempotency/idempotent-writes';
import { CursorCodec } from '../pagination/cursor-codec';
import { pgPoolOf } from '../pg-pool';
import { databaseReadiness } from '../readiness';
import type { StorageConfig } from './storage-env';

export interface ServiceDataOptions {
  /** The service's schema, URL, pool, entities and migrations (its `database/<name>.database.ts`). */
  database: ServiceDatabase;
  /**
   * A product service: `/healthz`, `/readyz` and its health subject, ready while its database
   * answers. The gateway serves its own probes and leaves this out.
   */
  health?: ServiceName;
  /**
   * The settings of `storageEnv`, for a service that seals secrets, writes idempotently and
   * signs list cursors: the module then provides `SealedBox`, `CursorCodec`, `IdempotentWrites`
   * and the idempotency records purger.
   */
  storage?: Pick<StorageConfig, 'ENCRYPTION_KEY' | 'IDEMPOTENCY_TTL_HOURS' | 'CURSOR_TTL_HOURS'>;
  /**
   * Called after each committed idempotent write, with the service's pool: the email service
   * wakes its outbox relay (`wakeRelay` of @switchboard/background), since its writes record events.
   */
  afterWrites?: (pool: Pool) => void;
  /** Providers of the service whose expired records the idempotency purger deletes too. */
  purgeAlso?: ReadonlyArray<Type<ExpiringRecords>>;
}

/**
 * A service's data plumbing, once: its TypeORM data source (named by its schema), readiness on
 * it, and, with `storage`, the sealed box, the cursor codec, idempotent writes and the purger of
 * idempotency records. Global within the service's application, so its feature modules inject
 * `SealedBox`, `CursorCodec` and `IdempotentWrites` without importing it. Each service (and the
 * gateway) is an application of its own, even in the embedded default, so these never meet.
 */
@Module({})
export class ServiceDataModule {
  static forService(options: ServiceDataOptions): DynamicModule {
    const { database, storage } = options;
    const schema = database.schema;
    const imports: DynamicModule[] = [TypeOrmModule.forRoot(serviceTypeOrmOptions(database))];
    if (options.health)
      imports.push(ServiceHealthModule.forService(options.health, databaseReadiness(schema)));
    if (!storage) return { module: ServiceDataModule, imports };
    const box = new SealedBox(storage.ENCRYPTION_KEY);
    const providers: Provider[] = [
      { provide: SealedBox, useValue: box },
      {
        provide: CursorCodec,
        useValue: new CursorCodec(
          `cursor:${storage.ENCRYPTION_KEY}`,
          storage.CURSOR_TTL_HOURS * 3_600_000,
        ),
      },
      {
        provide: IdempotentWrites,
        inject: [getDataSourceToken(schema)],
        useFactory: (dataSource: DataSource) =>
          new IdempotentWrites(
            dataSource,
            schema,
            box,
            options.afterWrites ? () => options.afterWrites?.(pgPoolOf(dataSource)) : undefined,
          ),
      },
      idempotencyPurgerProvider(schema, storage.IDEMPOTENCY_TTL_HOURS, options.purgeAlso),
    ];
    return {
      module: ServiceDataModule,
      global: true,
      imports,
      providers,
      exports: [SealedBox, CursorCodec, IdempotentWrites],
    };
  }
}
