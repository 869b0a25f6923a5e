import { Injectable, Module } from '@nestjs/common';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { RequestContext } from '@switchboard/contracts';
import { READINESS_CHECKS, SealedBox } from '@switchboard/platform';
import type { ReadinessCheck } from '@switchboard/platform';
import { startTestPostgres } from '@switchboard/testing';
import { Client } from 'pg';
import type { Pool } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { ServiceDatabase } from '../data-source';
import { IdempotencyRecordsPurger } from '../idempotency/idempotency-purger';
import type { ExpiringRecords } from '../idempotency/idempotency-purger';
import { idempotencyRecordsTable } from '../idempotency/idempotent-write';
import { IdempotentWrites } from '../idempotency/idempotent-writes';
import { runMigrations } from '../migrate';
import { CursorCodec } from '../pagination/cursor-codec';
import { ServiceDataModule } from './service-data.module';
import type { ServiceDataOptions } from './service-data.module';

type RunningPostgres = Awaited<ReturnType<typeof startTestPostgres>>;

class CreateRecords1700000000000 implements MigrationInterface {
  name = 'CreateRecords1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(idempotencyRecordsTable('docs'));
  }
  async down(): Promise<void> {}
}

/** A provider of a feature module that does not import the data module: it injects its parts. */
@Injectable()
class Consumer {
  writes = 0;
  constructor(
    readonly idempotent: IdempotentWrites,
    readonly box: SealedBox,
    readonly cursors: CursorCodec,
  ) {}
}

@Injectable()
class ExpiringThings implements ExpiringRecords {
  purgeExpired(): Promise<number> {
    return Promise.resolve(3);
  }
}

@Module({ providers: [Consumer, ExpiringThings] })
class FeatureModule {}

describe(ServiceDataModule.name, () => {
  let postgres: RunningPostgres;
  let database: ServiceDatabase;
  const storage = {
    ENCRYPTION_KEY: 'service data spec key 0123456789',
    IDEMPOTENCY_TTL_HOURS: 24,
    CURSOR_TTL_HOURS: 1,
  };
  const context = (key?: string): RequestContext => ({
    requestId: 'req_1',
    workspaceId: 'ws_1',
    caller: { kind: 'api_key', role: 'admin' },
    idempotencyKey: key,
    idempotencyFingerprint: key && 'f-1',
  });
  const apps: INestApplicationContext[] = [];
  const start = async (options: Omit<ServiceDataOptions, 'database'>) => {
    @Module({ imports: [ServiceDataModule.forService({ database, ...options }), FeatureModule] })
    class ServiceModule {}
    const app = await NestFactory.createApplicationContext(ServiceModule, { logger: false });
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
    database = {
      schema: 'docs',
      url: postgres.url,
      poolSize: 2,
      entities: [],
      migrations: [CreateRecords1700000000000],
    };
    await runMigrations(database);
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await postgres?.stop();
  });

  it("gives the service's providers one sealed box, cursor codec and idempotent writes", async () => {
    const app = await start({ health: 'docs', storage });
    const consumer = app.get(Consumer);
    const write = () =>
      consumer.idempotent.run(context('k-1'), async (manager) => {
        consumer.writes += 1;
        const [row] = await manager.query<Array<{ n: number }>>('SELECT 41 + 1 AS n');
        return { n: row.n };
      });
    expect(await write()).toEqual({ n: 42 });
    expect(await write()).toEqual({ n: 42 });
    expect(consumer.writes).toBe(1);
    expect(consumer.box.open(new SealedBox(storage.ENCRYPTION_KEY).seal('same key'))).toBe(
      'same key',
    );
    const binding = { sort: 'created_at', order: 'desc' as const, filters: {} };
    const cursor = consumer.cursors.encode(binding, { value: null, id: 'x_1' });
    expect(consumer.cursors.decode(cursor, binding)).toEqual({ value: null, id: 'x_1' });
    const checks = app.get<ReadinessCheck[]>(READINESS_CHECKS, { strict: false });
    expect(checks.map((check) => check.name)).toEqual(['database']);
    await expect(checks[0].check()).resolves.toBeUndefined();
  });

  it('runs an effect without a key at once, and once per key with one', async () => {
    const writes = (await start({ storage })).get(IdempotentWrites);
    let effects = 0;
    const effect = () => Promise.resolve(++effects);
    expect(await writes.runEffect(context(), effect)).toBe(1);
    expect(await writes.runEffect(context(), effect)).toBe(2);
    expect(await writes.runEffect(context('k-effect'), effect)).toBe(3);
    expect(await writes.runEffect(context('k-effect'), effect)).toBe(3);
  });

  it('calls afterWrites with the service pool after each committed write', async () => {
    const listener = new Client({ connectionString: postgres.url });
    await listener.connect();
    try {
      await listener.query('LISTEN "docs_written"');
      const woken = new Promise<string>((resolve) =>
        listener.on('notification', (message) => resolve(message.channel)),
      );
      const afterWrites = (pool: Pool) => void pool.query('NOTIFY "docs_written"');
      const writes = (await start({ storage, afterWrites })).get(IdempotentWrites);
      await writes.run(context(), () => Promise.resolve(null));
      expect(await woken).toBe('docs_written');
    } finally {
      await listener.end();
    }
  });

  it('purges expired records and what the service names on one timer', async () => {
    const app = await start({ storage, purgeAlso: [ExpiringThings] });
    const db = new Client({ connectionString: postgres.url });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO docs.idempotency_records (workspace_id, key, fingerprint, created_at)
         VALUES ('ws_1', 'old', '', now() - interval '25 hours')`,
      );
      expect(await app.get(IdempotencyRecordsPurger).run()).toBe(1 + 3);
    } finally {
      await db.end();
    }
  });

  it('provides only the data source and readiness without storage settings', async () => {
    const app = await NestFactory.createApplicationContext(
      ServiceDataModule.forService({ database, health: 'docs' }),
      { logger: false },
    );
    apps.push(app);
    expect(app.get<ReadinessCheck[]>(READINESS_CHECKS, { strict: false })).toHaveLength(1);
    expect(() => app.get(IdempotentWrites, { strict: false })).toThrow();
  });
});
