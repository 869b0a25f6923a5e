import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunningPostgres } from '@switchboard/embedded-postgres';

const REPO_ROOT = resolve(__dirname, '../../..');

/**
 * A throw-away PostgreSQL server under the system temp directory, removed on stop. It runs in
 * a child process (tools/embedded-postgres.mjs over the built persistence lib, so `npm test`
 * builds first), as the benchmarks' servers do.
 */
export function startTestPostgres(): Promise<RunningPostgres> {
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
    child.once('exit', (code) =>
      reject(new Error(`embedded PostgreSQL exited ${code}: ${output}`)),
    );
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
