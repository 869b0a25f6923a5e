#!/usr/bin/env node
// `npm run migrate`: applies every service's migrations, one service at a time, by running
// `node dist/apps/<app>/src/main.js migrate` with this process's environment (DATABASE_URL...).
// Each service owns its schema, so the order does not matter; running them one by one keeps the
// output readable and stops at the first failure. Also used by tools/start-distributed.mjs, the
// compose `migrate` service and the Kubernetes migration Job.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every service that owns a schema, by app folder. */
export const APPS = [
  'gateway',
  'docs',
  'email',
  'realtime',
  'sms-whatsapp',
  'verify-lookup-preferences',
  'workspace-objects',
  'conversations-connectors',
];

export class MigrationError extends Error {}

/**
 * Runs the migrations of every app in sequence. `onOutput(app, stream, chunk)` receives the
 * children's output when given; otherwise it goes straight to this process's stdout and stderr.
 */
export async function migrateAll({ env = process.env, onOutput } = {}) {
  for (const app of APPS) {
    const main = join(root, 'dist', 'apps', app, 'src', 'main.js');
    if (!existsSync(main)) {
      throw new MigrationError(
        `migrate: ${app} is not built (${main} is missing): run "node tools/build.mjs" first`,
      );
    }
    const code = await new Promise((done, fail) => {
      const child = spawn(process.execPath, [main, 'migrate'], {
        cwd: root,
        env,
        stdio: onOutput ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      });
      if (onOutput) {
        child.stdout.on('data', (chunk) => onOutput(app, 'stdout', chunk));
        child.stderr.on('data', (chunk) => onOutput(app, 'stderr', chunk));
      }
      child.once('error', fail);
      child.once('close', (exitCode, signal) => done(signal ? signal : exitCode));
    });
    if (code !== 0)
      throw new MigrationError(
        `migrate: ${app} failed (${typeof code === 'string' ? `killed by ${code}` : `exit code ${code}`}); later services were not migrated`,
      );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await migrateAll();
    console.log(`migrate: ${APPS.length} services up to date`);
  } catch (err) {
    // One line: the child has already printed its own reason above.
    console.error(err instanceof MigrationError ? err.message : `migrate: ${err.message}`);
    process.exit(1);
  }
}
