import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@switchboard/platform';
import type { RunningPostgres } from '@switchboard/embedded-postgres';
import { startTestPostgres } from '@switchboard/testing';
import { Client } from 'pg';
import { startEmbeddedPlatform } from '../src/embedded-platform';
import type { EmbeddedPlatform } from '../src/embedded-platform';

/** The operator token every test platform runs with. */
export const TEST_ADMIN_TOKEN = 'sbadm_api_test_operator_token';

export interface TestPlatform {
  base: string;
  /** Every (method, path) the gateway serves, HEAD included, as Fastify registered them. */
  routes: ReadonlyArray<{ method: string; url: string }>;
  adminToken: string;
  /** A direct connection to the platform's database, for assertions on what was stored. */
  db: Client;
  databaseUrl: string;
  /** The thread running the services' background work. */
  background: EmbeddedPlatform['background'];
  stop(): Promise<void>;
}

/** The embedded default on a throw-away PostgreSQL, as an API test drives it. */
export async function startTestPlatform(env: NodeJS.ProcessEnv = {}): Promise<TestPlatform> {
  const adminToken = TEST_ADMIN_TOKEN;
  const postgres: RunningPostgres = await startTestPostgres();
  let platform: EmbeddedPlatform | undefined;
  const db = new Client({ connectionString: postgres.url });
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-api-'));
  try {
    platform = await startEmbeddedPlatform({
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        PLATFORM_ADMIN_TOKEN: adminToken,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        DOCS_DIR: join(__dirname, '../../../docs'),
        ...env,
      },
      dataDir,
      databaseUrl: postgres.url,
      logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
      // This file runs from its TypeScript source; the thread runs the build (`node tools/build.mjs`).
      backgroundEntry: join(
        __dirname,
        '../../../dist/apps/standalone/src/background/background-thread.js',
      ),
    });
    await db.connect();
  } catch (err) {
    await platform?.stop();
    await postgres.stop();
    throw err;
  }
  const running = platform;
  return {
    base: running.url,
    routes: running.routes,
    adminToken,
    db,
    databaseUrl: postgres.url,
    background: running.background,
    stop: async () => {
      await db.end();
      await running.stop();
      await postgres.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
