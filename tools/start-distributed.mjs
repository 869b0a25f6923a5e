#!/usr/bin/env node
// `npm run start:distributed`: the distributed topology on one machine, without Docker. Builds,
// starts nats-server (or uses NATS_URL) and PostgreSQL (embedded, or DATABASE_URL), migrates every
// schema, then runs each service as its own process with TRANSPORT=nats and the gateway in front.
// Ctrl-C (or SIGTERM) stops everything in order: gateway, services, NATS, PostgreSQL.
//
// Environment: PORT (gateway, default 8080), PLATFORM_ADMIN_TOKEN (generated and kept in
// .data/distributed/admin-token when unset), ENCRYPTION_KEY (gateway, realtime and their
// migrations; generated and kept in .data/distributed/encryption-key when unset), NATS_URL,
// DATABASE_URL, LOG_LEVEL; any other variable is passed on to every process.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { deployedApps, MigrationError, migrateAll } from './migrate.mjs';

const self = fileURLToPath(import.meta.url);
const root = resolve(dirname(self), '..');
const dataDir = join(root, '.data', 'distributed');
/** The product services (the contracts' list, read after the build): every app but the gateway. */
let SERVICES = [];
/** The processes whose env schema requires ENCRYPTION_KEY (the migrations run every app's). */
const ENCRYPTED = ['gateway', 'realtime'];
const FIRST_SERVICE_PORT = 8181; // one per service in list order: docs 8181, email 8182...
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

// ---- the supervisor ------------------------------------------------------------------------------

async function main() {
  const gatewayPort = parsePort(process.env.PORT ?? '8080', 'PORT');
  const natsBinary = process.env.NATS_URL ? undefined : findOnPath('nats-server');
  if (!process.env.NATS_URL && !natsBinary) {
    fail(
      'nats-server not found: install it with "apt-get install -y nats-server" (Debian/Ubuntu) or see https://docs.nats.io',
    );
  }
  const build = spawnSync(process.execPath, [join(root, 'tools', 'build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) fail('build failed (node tools/build.mjs): see the errors above');
  SERVICES = deployedApps().filter((app) => app !== 'gateway');

  const ports = [
    ...SERVICES.map((app, i) => [app, FIRST_SERVICE_PORT + i]),
    ['gateway', gatewayPort],
  ];
  for (const [app, port] of ports) {
    if (!(await portIsFree(port)))
      fail(
        `port ${port} (${app}) is already in use: stop what listens there, or set PORT for the gateway`,
      );
  }
  mkdirSync(dataDir, { recursive: true });

  const supervisor = new Supervisor();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () =>
      supervisor.stopping ? supervisor.kill(130) : void supervisor.stop(0),
    );
  }
  process.on('exit', () => supervisor.killSync());

  try {
    const natsUrl = process.env.NATS_URL ?? (await supervisor.startNats(natsBinary));
    const postgres = process.env.DATABASE_URL
      ? { url: process.env.DATABASE_URL }
      : await supervisor.startPostgres();
    const base = {
      ...process.env,
      TRANSPORT: 'nats',
      NATS_URL: natsUrl,
      DATABASE_URL: postgres.url,
    };
    // Before the migrations, which load the gateway's and realtime's schemas and so need it too.
    // Kept across runs: a new key would leave what was sealed under the old one unreadable.
    const encryption = persistedSecret(
      'ENCRYPTION_KEY',
      'encryption-key',
      () => `sbenc_${randomBytes(24).toString('hex')}`,
    );
    const sealed = { ENCRYPTION_KEY: encryption.value };

    say('applying migrations');
    await migrateAll({
      env: { ...base, ...sealed },
      onOutput: (app, stream, chunk) => supervisor.output(app, stream, chunk),
    });

    const admin = persistedSecret('PLATFORM_ADMIN_TOKEN', 'admin-token', () =>
      randomBytes(32).toString('base64url'),
    );
    const urls = [];
    SERVICES.forEach((app, i) => {
      const port = FIRST_SERVICE_PORT + i;
      const env = { ...base, ...(ENCRYPTED.includes(app) ? sealed : {}), HTTP_PORT: String(port) };
      supervisor.spawn(
        app,
        process.execPath,
        [join(root, 'dist', 'apps', app, 'src', 'main.js')],
        env,
      );
      urls.push([app, port]);
    });
    supervisor.spawn(
      'gateway',
      process.execPath,
      [join(root, 'dist', 'apps', 'gateway', 'src', 'main.js')],
      {
        ...base,
        ...sealed,
        PORT: String(gatewayPort),
        PLATFORM_ADMIN_TOKEN: admin.value,
      },
    );
    urls.push(['gateway', gatewayPort]);

    await Promise.all(
      urls.map(([app, port]) =>
        supervisor.waitUntil(app, `http://127.0.0.1:${port}/readyz`, READY_TIMEOUT_MS),
      ),
    );
    if (supervisor.stopping) return;
    const lines = [
      'Switchboard is running in distributed mode',
      `  API:          http://localhost:${gatewayPort}`,
      admin.source === 'env'
        ? '  admin token:  from PLATFORM_ADMIN_TOKEN'
        : `  admin token:  ${admin.value}  (${admin.source})`,
      `  encryption:   ${encryption.source === 'env' ? 'key from ENCRYPTION_KEY' : `key ${encryption.source}`} (gateway, realtime)`,
      `  services:     ${urls
        .filter(([app]) => app !== 'gateway')
        .map(([app, port]) => `${app} :${port}`)
        .join(', ')}`,
      `  NATS:         ${natsUrl}`,
      `  PostgreSQL:   ${postgres.dataDir ? `embedded, data in ${postgres.dataDir}` : 'DATABASE_URL'}`,
      'Press Ctrl-C to stop.',
    ];
    for (const line of lines) say(line);
  } catch (err) {
    if (!supervisor.stopping) {
      process.stderr.write(
        `${err instanceof StartError || err instanceof MigrationError ? err.message : `start-distributed: ${err.stack ?? err}`}\n`,
      );
      await supervisor.stop(1);
    }
  }
}

class StartError extends Error {}

/** The child processes, in start order, and their orderly stop. */
class Supervisor {
  children = [];
  stopping = false;
  colors = new Map();

  /**
   * Each child gets its own process group (`detached`), so a Ctrl-C in the terminal reaches only
   * this script, which then stops the children in order instead of all at once.
   */
  spawn(name, command, args, env, { stdin = 'ignore' } = {}) {
    const child = spawn(command, args, {
      cwd: root,
      env,
      detached: true,
      stdio: [stdin, 'pipe', 'pipe'],
    });
    const entry = { name, child, exited: false };
    this.children.push(entry);
    this.pipe(name, child.stdout, 'stdout');
    this.pipe(name, child.stderr, 'stderr');
    child.once('error', (err) => {
      entry.exited = true;
      this.crash(`${name} could not start: ${err.message}`);
    });
    child.once('exit', (code, signal) => {
      entry.exited = true;
      if (!this.stopping)
        this.crash(`${name} exited (${signal ?? `code ${code}`}); stopping everything`);
    });
    return child;
  }

  async startNats(binary) {
    const port = await freePort();
    const monitor = await freePort();
    this.spawn(
      'nats',
      binary,
      [
        '-a',
        '127.0.0.1',
        '-p',
        String(port),
        '-m',
        String(monitor),
        '-js',
        '-sd',
        join(dataDir, 'nats'),
      ],
      process.env,
    );
    await this.waitUntil('nats', `http://127.0.0.1:${monitor}/healthz`, 15_000);
    return `nats://127.0.0.1:${port}`;
  }

  /**
   * Embedded PostgreSQL runs in a helper process (this script with --embedded-postgres): in its own
   * process group Ctrl-C cannot stop it before the services, and the helper stops the server
   * when this script goes away, even without a clean stop.
   */
  async startPostgres() {
    const child = this.spawn(
      'postgres',
      process.execPath,
      [self, '--embedded-postgres'],
      process.env,
      { stdin: 'pipe' },
    );
    const started = await new Promise((done, reject) => {
      const timer = setTimeout(
        () => reject(new StartError('embedded PostgreSQL did not start within 60 s')),
        60_000,
      );
      this.onStarted = (line) => {
        clearTimeout(timer);
        done(JSON.parse(line));
      };
      child.once('exit', () => clearTimeout(timer));
    });
    say(
      `PostgreSQL on port ${started.port}, data in ${relative(root, started.dataDir) || started.dataDir}`,
    );
    return started;
  }

  async waitUntil(name, url, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (!this.stopping) {
      const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline)
        throw new StartError(
          `${name} was not ready within ${timeoutMs / 1000} s (${url}); stopping everything`,
        );
      await sleep(250);
    }
  }

  pipe(name, stream, kind) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      if (name === 'postgres' && kind === 'stdout' && line.startsWith('{') && this.onStarted) {
        const started = this.onStarted;
        this.onStarted = undefined;
        return started(line);
      }
      this.writeLine(name, kind, line);
    });
  }

  /** Output that arrives in chunks (the migration runs): split into prefixed lines. */
  output(name, kind, chunk) {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line) this.writeLine(name, kind, line);
  }

  writeLine(name, kind, line) {
    (kind === 'stderr' ? process.stderr : process.stdout).write(`${this.label(name)} ${line}\n`);
  }

  label(name) {
    const text = `${name.padEnd(25)} |`;
    if (!process.stdout.isTTY) return text;
    if (!this.colors.has(name)) this.colors.set(name, 31 + (this.colors.size % 6));
    return `\x1b[${this.colors.get(name)}m${text}\x1b[0m`;
  }

  crash(message) {
    if (this.stopping) return;
    process.stderr.write(`${message}\n`);
    void this.stop(1);
  }

  /** Gateway first (no new requests), then the services, then NATS, then PostgreSQL. */
  async stop(code) {
    if (this.stopping) return;
    this.stopping = true;
    say('stopping');
    const byName = (names) => this.children.filter((c) => names.includes(c.name));
    await this.stopGroup(byName(['gateway']));
    await this.stopGroup(byName(SERVICES));
    await this.stopGroup(byName(['nats']));
    await this.stopGroup(byName(['postgres']));
    say('stopped');
    process.exit(code);
  }

  async stopGroup(entries) {
    await Promise.all(
      entries
        .filter((e) => !e.exited)
        .map(async (entry) => {
          const exited = new Promise((done) => entry.child.once('exit', done));
          signal(entry.child.pid, 'SIGTERM');
          const timer = setTimeout(() => {
            this.writeLine(
              entry.name,
              'stderr',
              `did not stop within ${STOP_TIMEOUT_MS / 1000} s: killed`,
            );
            signal(-entry.child.pid, 'SIGKILL');
          }, STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }),
    );
  }

  /** A second Ctrl-C: no more waiting. */
  kill(code) {
    this.killSync();
    process.exit(code);
  }

  killSync() {
    for (const entry of this.children) if (!entry.exited) signal(-entry.child.pid, 'SIGKILL');
  }
}

// ---- the embedded PostgreSQL helper ---------------------------------------------------------------

async function runEmbeddedPostgres() {
  const persistence = join(root, 'dist', 'libs', 'persistence', 'src', 'index.js');
  // dist/ is CommonJS; require reads its exports reliably, where import() would have to guess them.
  const { startEmbeddedPostgres } = createRequire(import.meta.url)(persistence);
  const running = await startEmbeddedPostgres({
    dataDir: join(dataDir, 'postgres'),
    persistent: true,
    onNotice: (message) => process.stderr.write(`${message}\n`),
  }).catch((err) => {
    process.stderr.write(
      `embedded PostgreSQL failed to start: ${err?.message ?? err ?? 'the server exited'}\n`,
    );
    process.exit(1);
  });
  process.stdout.write(
    `${JSON.stringify({ url: running.url, port: running.port, dataDir: running.dataDir })}\n`,
  );
  // SIGTERM from the supervisor: the embedded-postgres package's own exit hook stops the server.
  // stdin closes when the supervisor dies without stopping us: stop the server too.
  process.stdin.resume();
  process.stdin.once('end', () => void running.stop().finally(() => process.exit(0)));
}

// ---- small helpers -------------------------------------------------------------------------------

/**
 * A secret from the environment variable `name`, else the one kept in `.data/distributed/<file>`,
 * else a new one from `generate()`, written there (owner-only) for the next runs.
 */
function persistedSecret(name, file, generate) {
  if (process.env[name]) return { value: process.env[name], source: 'env' };
  const path = join(dataDir, file);
  const shown = relative(root, path);
  if (existsSync(path)) {
    const value = readFileSync(path, 'utf8').trim();
    if (value) return { value, source: `stored in ${shown}` };
  }
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return { value, source: `generated, stored in ${shown}` };
}

function findOnPath(binary) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, binary), constants.X_OK);
      return join(dir, binary);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

function parsePort(raw, name) {
  // 0 (any free port) is refused: the URL to print and to probe would be unknown.
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535)
    fail(
      `Invalid configuration: ${name} must be an integer from 1 to 65535 (got ${JSON.stringify(raw)})`,
    );
  return Number(raw);
}

function portIsFree(port) {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '0.0.0.0', () => probe.close(() => done(true)));
  });
}

function freePort() {
  return new Promise((done, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function say(line) {
  process.stdout.write(`${'switchboard'.padEnd(25)} | ${line}\n`);
}

function fail(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

function sleep(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

// Last: the classes above must be initialised before either entry point runs.
if (process.argv[2] === '--embedded-postgres') {
  await runEmbeddedPostgres();
} else {
  await main();
}
