// Keeps a set of child processes running, as Kubernetes keeps a pod's containers running: a child
// that exits is started again after a delay that doubles with each quick crash (1 s, 2 s, 4 s...
// up to 30 s) and drops back to the first step once a run has lasted long enough. The other
// children are not touched. Only stop() (or SIGINT/SIGTERM/SIGHUP with handleSignals()) ends them
// all, in the order given. Used by tools/start-distributed.mjs; tested by supervisor.spec.ts.
//
// No import.meta here: jest loads this file through swc as CommonJS.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';

/** Restart back-off: first delay, ceiling, and how long a run must last to reset the delay. */
export const DEFAULT_BACKOFF = Object.freeze({
  initialMs: 1_000,
  maxMs: 30_000,
  resetAfterMs: 60_000,
});

/** The delay before the next start of a child that has crashed `crashes` times in a row (0-based). */
export function restartDelay(crashes, backoff = DEFAULT_BACKOFF) {
  return Math.min(backoff.initialMs * 2 ** crashes, backoff.maxMs);
}

/** `code 3`, `SIGKILL`: how a child ended, for the console. */
export function describeExit(code, signal) {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/** `0.25 s`, `12 s`, `3 min 5 s`. */
export function formatDuration(ms) {
  if (ms < 10_000) return `${Math.round(ms / 10) / 100} s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * Events:
 * - `output` (name, stream, line): a line a child wrote to stdout or stderr;
 * - `spawn` ({ name, pid, restarts }): a child started; `restarts` counts its earlier starts;
 * - `exit` ({ name, code, signal, uptimeMs, restartInMs, restarts }): a child ended;
 *   `restartInMs` is undefined when it is not restarted (stopping, or `restart: false`);
 * - `fatal` ({ name, message }): a child started with `restart: false` ended (or could not start)
 *   while the supervisor was not stopping; the owner decides what to do (usually stop()).
 */
export class Supervisor extends EventEmitter {
  /**
   * @param {object} [options]
   * @param {string} [options.cwd] working directory of the children
   * @param {{initialMs: number, maxMs: number, resetAfterMs: number}} [options.backoff]
   * @param {number} [options.stopTimeoutMs] SIGTERM grace period before SIGKILL
   */
  constructor({ cwd = process.cwd(), backoff = DEFAULT_BACKOFF, stopTimeoutMs = 10_000 } = {}) {
    super();
    this.cwd = cwd;
    this.backoff = backoff;
    this.stopTimeoutMs = stopTimeoutMs;
    /** name -> { name, spec, child, startedAt, crashes, restarts, timer } */
    this.children = new Map();
    this.stopping = false;
  }

  /**
   * Starts `name`. With `restart` (the default) it is started again whenever it ends; otherwise
   * its end is reported as `fatal`. Each child gets its own process group (`detached`), so a
   * Ctrl-C in the terminal reaches only the supervisor, which then stops the children in order.
   */
  start(name, { command, args = [], env = process.env, stdin = 'ignore', restart = true }) {
    if (this.children.has(name)) throw new Error(`${name} is already supervised`);
    const entry = {
      name,
      spec: { command, args, env, stdin, restart },
      child: undefined,
      startedAt: 0,
      crashes: 0,
      restarts: 0,
      timer: undefined,
    };
    this.children.set(name, entry);
    this.#launch(entry);
    return entry.child;
  }

  /** Changes whether `name` is restarted when it ends (e.g. once a start-up phase is over). */
  setRestart(name, restart) {
    const entry = this.children.get(name);
    if (entry) entry.spec.restart = restart;
  }

  /** The running child process of `name`, if any (none while it waits for its restart). */
  child(name) {
    return this.children.get(name)?.child;
  }

  #launch(entry) {
    const { command, args, env, stdin } = entry.spec;
    const child = spawn(command, args, {
      cwd: this.cwd,
      env,
      detached: true,
      stdio: [stdin, 'pipe', 'pipe'],
    });
    entry.child = child;
    entry.startedAt = Date.now();
    for (const stream of ['stdout', 'stderr']) {
      createInterface({ input: child[stream], crlfDelay: Infinity }).on('line', (line) =>
        this.emit('output', entry.name, stream, line),
      );
    }
    let ended = false;
    const end = (code, signal, error) => {
      if (ended) return;
      ended = true;
      if (entry.child === child) entry.child = undefined;
      this.#ended(entry, code, signal, error);
    };
    child.once('error', (err) => end(null, null, err));
    child.once('exit', (code, signal) => end(code, signal));
    if (child.pid !== undefined)
      this.emit('spawn', { name: entry.name, pid: child.pid, restarts: entry.restarts });
  }

  #ended(entry, code, signal, error) {
    const uptimeMs = Date.now() - entry.startedAt;
    const report = { name: entry.name, code, signal, uptimeMs, restarts: entry.restarts };
    if (this.stopping) return this.emit('exit', { ...report, restartInMs: undefined });
    if (!entry.spec.restart) {
      this.emit('exit', { ...report, restartInMs: undefined });
      const message = error
        ? `${entry.name} could not start: ${error.message}`
        : `${entry.name} exited (${describeExit(code, signal)})`;
      return this.emit('fatal', { name: entry.name, message });
    }
    // A run that lasted a while was a recovery: the next crash starts the back-off again.
    if (uptimeMs >= this.backoff.resetAfterMs) entry.crashes = 0;
    const restartInMs = restartDelay(entry.crashes, this.backoff);
    entry.crashes += 1;
    this.emit('exit', { ...report, restartInMs });
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (this.stopping) return;
      entry.restarts += 1;
      this.#launch(entry);
    }, restartInMs);
  }

  /**
   * Stops every child: the groups of names in `order` one after the other (each group at once),
   * then whatever was not named. SIGTERM first, SIGKILL to the process group after the grace
   * period. Pending restarts are cancelled. Calling it again returns the same promise.
   */
  stop(order = []) {
    this.#stopped ??= this.#stopAll(order);
    return this.#stopped;
  }

  #stopped;

  async #stopAll(order) {
    this.stopping = true;
    for (const entry of this.children.values()) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
    }
    const named = new Set(order.flat());
    const groups = [...order, [...this.children.keys()].filter((name) => !named.has(name))];
    for (const group of groups) {
      await Promise.all(
        group
          .map((name) => this.children.get(name))
          .filter((entry) => entry?.child)
          .map((entry) => this.#stopOne(entry)),
      );
    }
  }

  async #stopOne(entry) {
    const { child } = entry;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    signal(child.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      this.emit(
        'output',
        entry.name,
        'stderr',
        `did not stop within ${formatDuration(this.stopTimeoutMs)}: killed`,
      );
      signal(-child.pid, 'SIGKILL');
    }, this.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  }

  /** Last resort (a second Ctrl-C, or this process exiting): SIGKILL every child's group now. */
  killSync() {
    this.stopping = true;
    for (const entry of this.children.values()) {
      clearTimeout(entry.timer);
      if (entry.child && entry.child.exitCode === null && entry.child.signalCode === null)
        signal(-entry.child.pid, 'SIGKILL');
    }
  }

  /**
   * SIGINT, SIGTERM or SIGHUP: stop() in `order`, then `exit(0)`; the same signal again while
   * stopping kills everything at once and exits 130. When this process exits for any other
   * reason, the children are killed rather than left behind.
   */
  handleSignals({ order = [], exit = (code) => process.exit(code), onSignal } = {}) {
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.on(name, () => {
        if (this.stopping) {
          this.killSync();
          return exit(130);
        }
        onSignal?.(name);
        void this.stop(order).then(() => exit(0));
      });
    }
    process.on('exit', () => this.killSync());
  }
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
