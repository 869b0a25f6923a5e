// Pieces shared by the benchmarks in bench/: CPU accounting per process group from /proc, starting
// and killing a child's process group, the loopback-only guard on load targets, and rewriting a
// section of RESULTS.md.
import { spawn } from 'node:child_process';
import { chmod, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * CPU time (user + system, in ticks of 1/100 s) of every process group a bench started, of the
 * bench process itself (autocannon), and of the whole machine (/proc/stat): what is left is the
 * work of other processes, which skews a run. Linux only; undefined elsewhere.
 */
export async function cpuSnapshot(groupLeaders) {
  try {
    const stat = await readFile('/proc/stat', 'utf8');
    const [user, nice, system, , , irq, softirq, steal] = stat
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = user + nice + system + irq + softirq + (steal ?? 0);
    const processes = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const text = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
      if (!text) continue;
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      processes.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        pgrp: Number(fields[2]),
        // utime + stime, plus cutime + cstime: the CPU of children it has reaped (a PostgreSQL
        // backend that exits during a run is then still counted, by the postmaster).
        ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
      });
    }
    // A process counts for the group it is in, or for the group of an ancestor: PostgreSQL's
    // backends leave their parent's group (setsid), but not its tree.
    const byPid = new Map(processes.map((p) => [p.pid, p]));
    const leaders = new Set(groupLeaders);
    const ownerOf = (p) => {
      for (let at = p, hops = 0; at && hops < 64; at = byPid.get(at.ppid), hops++)
        if (leaders.has(at.pgrp)) return at.pgrp;
      return undefined;
    };
    let ours = 0;
    const byGroup = Object.fromEntries(groupLeaders.map((leader) => [leader, 0]));
    let self = 0;
    for (const p of processes) {
      const owner = p.pid === process.pid ? 'self' : ownerOf(p);
      if (owner === 'self') self += p.ticks;
      else if (owner !== undefined) byGroup[owner] += p.ticks;
      else continue;
      ours += p.ticks;
    }
    return { at: process.hrtime.bigint(), busy, ours, byGroup, self };
  } catch {
    return undefined;
  }
}

/** Kills a started child's whole process group (PostgreSQL's backends included). */
export function killGroup(child) {
  try {
    process.kill(-child.proc.pid, 'SIGKILL');
  } catch {
    /* the group is already gone */
  }
}

/** Load is only ever pointed at this machine's own loopback address. */
export function assertLoopback(url) {
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1')
    throw new Error(`refusing to load ${url}: only 127.0.0.1 targets are allowed`);
}

/**
 * Starts `node <args>` in its own process group (with an IPC channel), remembered in `children`
 * for `killGroup` on the way out; `child.line(pattern)` resolves with the first match of its
 * output, or rejects when it exits or stays silent for 90 s.
 */
export function startNodeChild(children, root, name, args, env = {}) {
  const proc = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
  const child = { name, proc, output: '' };
  children.push(child);
  child.line = (pattern) =>
    new Promise((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`${name} not ready:\n${child.output}`)),
        90_000,
      );
      const look = (chunk) => {
        child.output = (child.output + chunk).slice(-8000);
        const match = pattern.exec(child.output);
        if (match) {
          clearTimeout(timer);
          done(match);
        }
      };
      proc.stdout.on('data', look);
      proc.stderr.on('data', look);
      proc.once('exit', (code) => fail(new Error(`${name} exited (${code}):\n${child.output}`)));
    });
  return child;
}

/**
 * Replaces the section of RESULTS.md under `heading` (up to the next `## ` heading outside a code
 * fence), or adds it before `## Gateway policies` (which bench:policies rewrites to the end of the
 * file), or at the end. Everything else is kept.
 */
export async function writeResultsSection(file, heading, section) {
  const current = await readFile(file, 'utf8').catch(() => '');
  const lines = current.split('\n');
  const start = lines.findIndex((line) => line === heading);
  let next;
  if (start >= 0) {
    let end = lines.length;
    let fenced = false;
    for (let i = start + 1; i < lines.length; i++) {
      if (lines[i].startsWith('```')) fenced = !fenced;
      if (!fenced && lines[i].startsWith('## ')) {
        end = i;
        break;
      }
    }
    next = [...lines.slice(0, start), ...section.split('\n'), '', ...lines.slice(end)];
  } else {
    const policies = lines.findIndex((line) => line.startsWith('## Gateway policies'));
    next =
      policies >= 0
        ? [...lines.slice(0, policies), ...section.split('\n'), '', ...lines.slice(policies)]
        : [...lines, '', ...section.split('\n')];
  }
  await writeFile(file, `${next.join('\n').trimEnd()}\n`);
}

/** The `p`th percentile (nearest rank) of `values`; NaN when there are none. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Runs a bench's `main` (which resolves to its exit status) and, on every way out, kills the
 * children it started and removes its temporary directory (`tmpDir()`, undefined if none yet).
 */
export async function runBench(name, main, children, tmpDir) {
  let status = 1;
  try {
    status = await main();
  } catch (err) {
    process.stderr.write(`${name}: ${err.stack ?? err}\n`);
  } finally {
    // A profiled platform stops cleanly first, so its profile is written.
    const platform = children.find((child) => child.name === 'platform');
    if (process.env.BENCH_PROFILE_DIR && platform) {
      platform.proc.kill('SIGINT');
      await new Promise((done) => {
        const timer = setTimeout(done, 15_000);
        platform.proc.once('exit', () => done(clearTimeout(timer)));
      });
    }
    for (const child of [...children].reverse()) killGroup(child);
    const tmp = tmpDir();
    if (tmp) await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
  process.exit(status);
}

/**
 * An embedded PostgreSQL and the embedded platform on it (`dist/`, `LOG_LEVEL=warn`, rate limits
 * off unless `env` says otherwise), each a child of this bench. Resolves with the database URL,
 * the platform's base URL, its operator token and its child.
 */
export async function startPlatformOnPostgres(children, root, tmp, name, env = {}) {
  // mkdtemp makes `tmp` 0700. As root the embedded PostgreSQL runs as `postgres`, which must be
  // able to enter it (not list it): otherwise its data goes to /var/lib/switchboard and outlives
  // the run.
  await chmod(tmp, 0o711);
  const postgres = startNodeChild(children, root, 'PostgreSQL', [
    join(root, 'tools/embedded-postgres.mjs'),
    join(tmp, 'pg'),
  ]);
  const [, databaseUrl] = await postgres.line(/"url":"([^"]+)"/);
  const adminToken = `sbadm_bench_${name}_operator_token`;
  const platform = startNodeChild(
    children,
    root,
    'platform',
    [
      // BENCH_PROFILE_DIR=dir: the platform writes a V8 CPU profile there when the bench ends.
      ...(process.env.BENCH_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
        : []),
      join(root, 'dist/apps/standalone/src/main.js'),
    ],
    {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(tmp, 'platform'),
      PLATFORM_ADMIN_TOKEN: adminToken,
      ENCRYPTION_KEY: `sbenc_bench_${name}_key_0123456789`,
      RATE_LIMITS: 'off',
      ...env,
    },
  );
  const [, base] = await platform.line(/Switchboard is running at (http:\/\/127\.0\.0\.1:\d+)/);
  assertLoopback(base);
  return { databaseUrl, base, adminToken, platform };
}

/** A JSON call with a bearer token; anything but 2xx fails the bench with the answer. */
export async function apiCall(base, method, path, token, body, headers = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text || '{}');
}
