import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@switchboard/platform';
import { DATABASE_URL_FILE, startEmbeddedPlatform } from '../src/embedded-platform';
import type { EmbeddedPlatform } from '../src/embedded-platform';

const REBUILD_STATS = join(__dirname, '../../../tools/rebuild-stats.mjs');

/** The environment of an operator's shell: no DATABASE_URL, the data directory named. */
const operatorEnv = (dataDir: string) => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return env;
};

/**
 * The embedded default on its own PostgreSQL, as `npm start` runs it: the operator's tools find
 * that database, whose port is picked afresh at each start, without DATABASE_URL.
 */
describe('the embedded default names its database to the operator tools', () => {
  let platform: EmbeddedPlatform;
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-embedded-'));
  const urlFile = join(dataDir, DATABASE_URL_FILE);

  beforeAll(async () => {
    platform = await startEmbeddedPlatform({
      env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      dataDir,
      persistentDatabase: false,
      logger: createLogger('test', 'silent'),
      backgroundEntry: join(
        __dirname,
        '../../../dist/apps/standalone/src/background/background-thread.js',
      ),
    });
  }, 120_000);

  let stopped = false;
  afterAll(async () => {
    if (!stopped) await platform?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes DATA_DIR/database-url, readable by its owner only, while it runs', () => {
    expect(readFileSync(urlFile, 'utf8').trim()).toBe(platform.databaseUrl);
    expect(statSync(urlFile).mode & 0o777).toBe(0o600);
  });

  it('lets `npm run stats:rebuild` run without DATABASE_URL', () => {
    const output = execFileSync(process.execPath, [REBUILD_STATS, '--channel', 'email'], {
      env: operatorEnv(dataDir),
      encoding: 'utf8',
    });
    expect(output).toMatch(/rebuild-stats email: done, 0 events folded/);
  });

  it('names a database-url file left by a crash as possibly stale instead of a stack trace', () => {
    const crashed = mkdtempSync(join(tmpdir(), 'switchboard-crashed-'));
    try {
      writeFileSync(join(crashed, DATABASE_URL_FILE), 'postgres://postgres:x@127.0.0.1:9/none\n');
      const run = spawnSync(process.execPath, [REBUILD_STATS, '--channel', 'sms'], {
        env: operatorEnv(crashed),
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('left by a crash is stale');
      expect(run.stderr).not.toContain('    at ');
    } finally {
      rmSync(crashed, { recursive: true, force: true });
    }
  });

  it('tells the operator to start Switchboard when neither names a database', () => {
    const empty = mkdtempSync(join(tmpdir(), 'switchboard-no-db-'));
    try {
      const run = spawnSync(process.execPath, [REBUILD_STATS, '--channel', 'sms'], {
        env: operatorEnv(empty),
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('no embedded default runs on DATA_DIR');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('removes the file when it stops', async () => {
    stopped = true;
    await platform.stop();
    expect(existsSync(urlFile)).toBe(false);
  });
});
