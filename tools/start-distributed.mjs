#!/usr/bin/env node
// `npm run start:distributed`: the distributed topology on one machine, without Docker. Builds,
// starts nats-server (or uses NATS_URL) and PostgreSQL (embedded, or DATABASE_URL), migrates every
// schema, then runs each service as its own process with TRANSPORT=nats and the gateway in front.
//
// Once everything is ready, a process that dies (a crash, an OOM kill, `kill -9`) is restarted by
// itself, as Kubernetes would restart a container: after 1 s, then 2, 4... up to 30 s while it
// keeps crashing, back to 1 s after it has stayed up for a minute (tools/supervisor.mjs). The
// console says which process ended, how, and when it restarts; the others keep serving. During
// start-up a process that ends stops everything instead (a bad setting fails at once rather than
// looping), and so does the embedded PostgreSQL helper at any time (its port would change).
// Ctrl-C (or SIGTERM) stops everything in order: gateway, services, NATS, PostgreSQL.
//
// Ports: the gateway on PORT (default 8080), each service's /healthz and /readyz on 8181, 8182...
// in list order, and each process's Prometheus /metrics on a port of its own: METRICS_PORT
// (default 9464) for the gateway, then one more per service in list order (9465, 9466...), on
// METRICS_HOST (default 127.0.0.1). All are checked free before anything starts, so two processes
// never race for one; METRICS_PORT=0 lets each process pick a free one (each logs its URL at info).
//
// Environment: PORT, METRICS_PORT, METRICS_HOST, PLATFORM_ADMIN_TOKEN (generated and kept in
// .data/distributed/admin-token when unset), ENCRYPTION_KEY (gateway, realtime, email, webhooks, workspace-objects and their
// migrations; generated and kept in .data/distributed/encryption-key when unset), NATS_URL,
// DATABASE_URL, LOG_LEVEL; any other variable is passed on to every process.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deployedApps, MigrationError, migrateAll } from './migrate.mjs';
import {
  DEFAULT_REALTIME_CLIENT_PORT,
  FIRST_SERVICE_PORT,
  natsConfig,
  natsServerArgs,
  processEnvironments,
} from './distributed-env.mjs';
import { describeExit, formatDuration, Supervisor } from './supervisor.mjs';

const self = fileURLToPath(import.meta.url);
const root = resolve(dirname(self), '..');
const dataDir = join(root, '.data', 'distributed');
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

// ---- the platform --------------------------------------------------------------------------------

async function main() {
  const gatewayPort = parsePort(process.env.PORT ?? '8080', 'PORT');
  const firstMetricsPort = parsePort(process.env.METRICS_PORT ?? '9464', 'METRICS_PORT', {
    allowZero: true,
  });
  const metricsHost = process.env.METRICS_HOST || '127.0.0.1';
  // Realtime clients connect to the gateway's origin, which forwards them to this port (as the
  // embedded default serves them on the API port itself).
  const realtimeClientPort = parsePort(
    process.env.REALTIME_CLIENT_PORT ?? String(DEFAULT_REALTIME_CLIENT_PORT),
    'REALTIME_CLIENT_PORT',
  );
  const realtimeClientUrl =
    process.env.REALTIME_CLIENT_URL ?? `http://127.0.0.1:${realtimeClientPort}`;
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
  // The contracts' service list, read from the build: every app but the gateway.
  const services = deployedApps().filter((app) => app !== 'gateway');

  // Metrics: the gateway first, then the services in list order (0: each picks a free port).
  const metricsPorts = new Map(
    ['gateway', ...services].map((app, i) => [app, firstMetricsPort && firstMetricsPort + i]),
  );
  const ports = [
    ...services.map((app, i) => [app, FIRST_SERVICE_PORT + i, 'health port']),
    ['gateway', gatewayPort, 'PORT'],
    ['realtime', realtimeClientPort, 'REALTIME_CLIENT_PORT'],
    ...[...metricsPorts].filter(([, port]) => port).map(([app, port]) => [app, port, 'metrics']),
  ];
  for (const [app, port, what] of ports) {
    if (port > 65535 || !(await portIsFree(port)))
      fail(
        `port ${port} (${app}, ${what}) is ${port > 65535 ? 'out of range' : 'already in use'}: stop what listens there, or set ${portSetting(what)}`,
      );
  }
  mkdirSync(dataDir, { recursive: true });

  const platform = new Platform(services);
  try {
    const natsUrl = process.env.NATS_URL ?? (await platform.startNats(natsBinary));
    const postgres = process.env.DATABASE_URL
      ? { url: process.env.DATABASE_URL }
      : await platform.startPostgres();
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
      onOutput: (app, stream, chunk) => platform.output(app, stream, chunk),
    });

    const admin = persistedSecret('PLATFORM_ADMIN_TOKEN', 'admin-token', () =>
      randomBytes(32).toString('base64url'),
    );
    const envs = processEnvironments({
      services,
      natsUrl,
      databaseUrl: postgres.url,
      encryptionKey: encryption.value,
      adminToken: admin.value,
      gatewayPort,
      metricsPorts,
      metricsHost,
      realtimeClientPort,
      realtimeClientUrl,
    });
    services.forEach((app, i) => {
      const port = FIRST_SERVICE_PORT + i;
      platform.startApp(app, `http://127.0.0.1:${port}/readyz`, {
        ...process.env,
        ...envs.get(app),
      });
    });
    platform.startApp('gateway', `http://127.0.0.1:${gatewayPort}/readyz`, {
      ...process.env,
      ...envs.get('gateway'),
    });

    await Promise.all(
      [...services, 'gateway'].map((app) =>
        platform.waitUntil(app, platform.healthUrls.get(app), READY_TIMEOUT_MS),
      ),
    );
    if (platform.stopping) return;
    platform.keepRunning();
    const lines = [
      'Switchboard is running in distributed mode',
      `  API:          http://localhost:${gatewayPort}`,
      `  realtime:     clients at ws://localhost:${gatewayPort}/app/{key} and /realtime/socket.io, forwarded to ${realtimeClientUrl}`,
      admin.source === 'env'
        ? '  admin token:  from PLATFORM_ADMIN_TOKEN'
        : `  admin token:  ${admin.value}  (${admin.source})`,
      `  encryption:   ${encryption.source === 'env' ? 'key from ENCRYPTION_KEY' : `key ${encryption.source}`} (gateway, realtime, email, webhooks, workspace-objects)`,
      `  services:     ${services.map((app, i) => `${app} :${FIRST_SERVICE_PORT + i}`).join(', ')} (health)`,
      firstMetricsPort
        ? `  metrics:      http://${metricsHost}:{port}/metrics on ${[...metricsPorts].map(([app, port]) => `${app} :${port}`).join(', ')}`
        : '  metrics:      METRICS_PORT=0: each process logs its own URL',
      `  NATS:         ${natsUrl}`,
      `  PostgreSQL:   ${postgres.dataDir ? `embedded, data in ${postgres.dataDir}` : 'DATABASE_URL'}`,
      'A process that dies is restarted. Press Ctrl-C to stop.',
    ];
    for (const line of lines) say(line);
  } catch (err) {
    if (!platform.stopping) {
      process.stderr.write(
        `${err instanceof StartError || err instanceof MigrationError ? err.message : `start-distributed: ${err.stack ?? err}`}\n`,
      );
      await platform.stop(1);
    }
  }
}

class StartError extends Error {}

/**
 * The processes of the platform on a Supervisor: their prefixed output, the console lines about
 * exits and restarts, and the orderly stop.
 */
class Platform {
  colors = new Map();
  /** Process -> the URL that answers 200 once it is ready (also watched after each restart). */
  healthUrls = new Map();
  /** Name -> when it last ended, for "ready again N s after it exited". */
  lastExit = new Map();
  /** Processes restarted once start-up is over; PostgreSQL never is. */
  restartable = ['nats'];

  constructor(services) {
    this.stopOrder = [['gateway'], services, ['nats'], ['postgres']];
    this.supervisor = new Supervisor({ cwd: root, stopTimeoutMs: STOP_TIMEOUT_MS });
    this.supervisor.on('output', (name, stream, line) => this.line(name, stream, line));
    this.supervisor.on('exit', (event) => this.exited(event));
    this.supervisor.on('spawn', (event) => this.spawned(event));
    this.supervisor.on('fatal', ({ message }) => {
      const during = this.running ? '' : ' during start-up';
      this.crash(`${message}${during}; stopping everything`);
    });
    this.supervisor.handleSignals({
      order: this.stopOrder,
      onSignal: () => say('stopping'),
      exit: (code) => {
        if (code === 0) say('stopped');
        process.exit(code);
      },
    });
  }

  get stopping() {
    return this.supervisor.stopping;
  }

  /** Every child starts without restarts: during start-up, an exit stops everything. */
  start(name, command, args, env, { stdin = 'ignore' } = {}) {
    return this.supervisor.start(name, { command, args, env, stdin, restart: false });
  }

  startApp(app, readyUrl, env) {
    this.healthUrls.set(app, readyUrl);
    this.restartable.push(app);
    this.start(app, process.execPath, [join(root, 'dist', 'apps', app, 'src', 'main.js')], env);
  }

  /** Start-up is over: from now on a process that ends is restarted. */
  keepRunning() {
    this.running = true;
    for (const name of this.restartable) this.supervisor.setRestart(name, true);
  }

  exited({ name, code, signal, uptimeMs, restartInMs, restarts }) {
    this.lastExit.set(name, Date.now());
    if (restartInMs === undefined) return;
    const at = new Date(Date.now() + restartInMs).toTimeString().slice(0, 8);
    say(
      `${name} exited (${describeExit(code, signal)}) after ${formatDuration(uptimeMs)} up; ` +
        `restarting in ${formatDuration(restartInMs)}, at ${at} (restart ${restarts + 1})`,
    );
  }

  spawned({ name, pid, restarts }) {
    if (restarts === 0) return;
    say(`${name} restarted (pid ${pid})`);
    const url = this.healthUrls.get(name);
    if (!url) return;
    // Report when it serves again; give up quietly if it ends again first.
    void (async () => {
      while (!this.stopping && this.supervisor.child(name)?.pid === pid) {
        if (await probe(url)) {
          const down = Date.now() - (this.lastExit.get(name) ?? Date.now());
          say(`${name} is ready again, ${formatDuration(down)} after it exited`);
          return;
        }
        await sleep(250);
      }
    })();
  }

  async startNats(binary) {
    const port = await freePort();
    const monitor = await freePort();
    // max_payload (a 20 MB email in one message) is set in a configuration file: see natsServerArgs.
    const configFile = join(dataDir, 'nats.conf');
    writeFileSync(configFile, natsConfig(platformLib()));
    const args = natsServerArgs({
      configFile,
      port,
      monitorPort: monitor,
      storeDir: join(dataDir, 'nats'),
    });
    this.start('nats', binary, args, process.env);
    this.healthUrls.set('nats', `http://127.0.0.1:${monitor}/healthz`);
    await this.waitUntil('nats', this.healthUrls.get('nats'), 15_000);
    return `nats://127.0.0.1:${port}`;
  }

  /**
   * Embedded PostgreSQL runs in a helper process (this script with --embedded-postgres): in its own
   * process group Ctrl-C cannot stop it before the services, and the helper stops the server
   * when this script goes away, even without a clean stop.
   */
  async startPostgres() {
    const child = this.start(
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
      if (await probe(url)) return;
      if (Date.now() > deadline)
        throw new StartError(
          `${name} was not ready within ${timeoutMs / 1000} s (${url}); stopping everything`,
        );
      await sleep(250);
    }
  }

  line(name, kind, line) {
    if (name === 'postgres' && kind === 'stdout' && line.startsWith('{') && this.onStarted) {
      const started = this.onStarted;
      this.onStarted = undefined;
      return started(line);
    }
    this.writeLine(name, kind, line);
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
    say('stopping');
    await this.supervisor.stop(this.stopOrder);
    say('stopped');
    process.exit(code);
  }
}

// ---- the embedded PostgreSQL helper ---------------------------------------------------------------

async function runEmbeddedPostgres() {
  const embeddedPostgres = join(root, 'dist', 'libs', 'embedded-postgres', 'src', 'index.js');
  // dist/ is CommonJS; require reads its exports reliably, where import() would have to guess them.
  const { startEmbeddedPostgres } = createRequire(import.meta.url)(embeddedPostgres);
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

function parsePort(raw, name, { allowZero = false } = {}) {
  // 0 (any free port) is refused for PORT: the URL to print and to probe would be unknown.
  const min = allowZero ? 0 : 1;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > 65535)
    fail(
      `Invalid configuration: ${name} must be an integer from ${min} to 65535 (got ${JSON.stringify(raw)})`,
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

/** libs/platform, read from the build. */
function platformLib() {
  const platform = join(root, 'dist', 'libs', 'platform', 'src', 'index.js');
  return createRequire(import.meta.url)(platform);
}

/** The platform's port chooser (see libs/platform/src/net/free-port.ts). */
function freePort() {
  return platformLib().freePort();
}

function say(line) {
  process.stdout.write(`${'switchboard'.padEnd(25)} | ${line}\n`);
}

function fail(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** Whether `url` answers 2xx within 2 s. */
function probe(url) {
  return fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (r) => r.ok,
    () => false,
  );
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

/** The setting that moves a port that is taken. */
function portSetting(what) {
  if (what === 'metrics') return 'METRICS_PORT (the first of eight)';
  if (what === 'REALTIME_CLIENT_PORT') return 'REALTIME_CLIENT_PORT for realtime clients';
  return 'PORT for the gateway';
}
