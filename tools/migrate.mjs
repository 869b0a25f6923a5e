#!/usr/bin/env node
// `npm run migrate`: applies every service's migrations, one service at a time, by running
// `node dist/apps/<app>/src/main.js migrate` with this process's environment (DATABASE_URL...).
// Each service owns its schema, so the order does not matter; running them one by one keeps the
// output readable and stops at the first failure. Also used by tools/start-distributed.mjs, the
// compose `migrate` service and the Kubernetes migration Job.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every app that runs as its own process and owns a schema (the gateway, then the product
 * services), by app folder: the contracts' list (libs/contracts/src/services.ts), read from its
 * compiled copy in dist/ so that this script and the TypeScript code cannot disagree.
 */
export function deployedApps() {
  const list = join(root, 'dist', 'libs', 'contracts', 'src', 'services.js');
  if (!existsSync(list)) {
    throw new MigrationError(
      `migrate: the services are not built (${list} is missing): run "node tools/build.mjs" first`,
    );
  }
  // dist/ is CommonJS; require reads its exports reliably, where import() would have to guess them.
  return [...createRequire(import.meta.url)(list).DeployedApps];
}

export class MigrationError extends Error {}

/**
 * Runs the migrations of every app in sequence and returns their names. `onOutput(app, stream,
 * chunk)` receives the children's output when given; otherwise it goes straight to this process's
 * stdout and stderr.
 */
export async function migrateAll({ env = process.env, onOutput } = {}) {
  const apps = deployedApps();
  for (const app of apps) {
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
  return apps;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const apps = await migrateAll();
    console.log(`migrate: ${apps.length} services up to date`);
  } catch (err) {
    // One line: the child has already printed its own reason above.
    console.error(err instanceof MigrationError ? err.message : `migrate: ${err.message}`);
    process.exit(1);
  }
}
