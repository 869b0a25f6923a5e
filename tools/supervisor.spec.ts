import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { restartDelay, Supervisor } from './supervisor.mjs';
import type { ExitEvent, SpawnEvent } from './supervisor.mjs';

/** A child that runs forever (until signalled). */
const STEADY = ['-e', 'setInterval(() => {}, 1000)'];
/** A child that crashes with exit code 3 after `ms`. */
const crashAfter = (ms: number) => ['-e', `setTimeout(() => process.exit(3), ${ms})`];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** Records what a supervisor reports, with the time of each event. */
function record(supervisor: Supervisor) {
  const spawns: Array<SpawnEvent & { at: number }> = [];
  const exits: Array<ExitEvent & { at: number }> = [];
  supervisor.on('spawn', (event) => spawns.push({ ...event, at: Date.now() }));
  supervisor.on('exit', (event) => exits.push({ ...event, at: Date.now() }));
  return { spawns, exits, of: (name: string) => spawns.filter((s) => s.name === name) };
}

describe(Supervisor.name, () => {
  let supervisor: Supervisor | undefined;

  afterEach(async () => {
    await supervisor?.stop();
    supervisor = undefined;
  });

  it('computes restart delays that double from the first one up to the ceiling', () => {
    const backoff = { initialMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => restartDelay(n, backoff))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('restarts a crashed child with growing delays while the others keep running', async () => {
    supervisor = new Supervisor({
      backoff: { initialMs: 100, maxMs: 400, resetAfterMs: 60_000 },
      stopTimeoutMs: 2_000,
    });
    const events = record(supervisor);
    supervisor.start('steady', { command: process.execPath, args: STEADY });
    supervisor.start('crasher', { command: process.execPath, args: crashAfter(50) });

    await until('the fifth start of the crasher', () => events.of('crasher').length >= 5);
    const crasherExits = events.exits.filter((e) => e.name === 'crasher').slice(0, 4);
    expect(crasherExits.map((e) => [e.code, e.signal, e.restartInMs])).toEqual([
      [3, null, 100],
      [3, null, 200],
      [3, null, 400],
      [3, null, 400],
    ]);
    // Each restart really waited its delay after the exit.
    const starts = events.of('crasher');
    crasherExits.forEach((exit, i) => {
      const waited = starts[i + 1].at - exit.at;
      expect({ restart: i + 1, waitedEnough: waited >= (exit.restartInMs ?? 0) - 5 }).toEqual({
        restart: i + 1,
        waitedEnough: true,
      });
    });
    expect(starts.map((s) => s.restarts).slice(0, 5)).toEqual([0, 1, 2, 3, 4]);

    // The steady child was started once and is still the same process.
    const steady = events.of('steady');
    expect(steady).toHaveLength(1);
    expect(alive(steady[0].pid)).toBe(true);
    expect(events.exits.filter((e) => e.name === 'steady')).toEqual([]);
    expect(supervisor.child('steady')?.pid).toBe(steady[0].pid);
  });

  it('restarts a child killed by SIGKILL, and starts the back-off again after a long enough run', async () => {
    supervisor = new Supervisor({
      backoff: { initialMs: 100, maxMs: 1_000, resetAfterMs: 300 },
      stopTimeoutMs: 2_000,
    });
    const events = record(supervisor);
    supervisor.start('victim', { command: process.execPath, args: STEADY });
    const first = await until('the first start', () => events.of('victim')[0]);
    process.kill(first.pid, 'SIGKILL');
    await until('the restart', () => events.of('victim').length >= 2);
    expect(events.exits[0]).toMatchObject({ name: 'victim', signal: 'SIGKILL', restartInMs: 100 });

    // Kill it again quickly: the delay doubles. Then let it run past resetAfterMs: back to 100.
    process.kill(events.of('victim')[1].pid, 'SIGKILL');
    await until('the second restart', () => events.of('victim').length >= 3);
    expect(events.exits[1].restartInMs).toBe(200);
    await new Promise((done) => setTimeout(done, 400));
    process.kill(events.of('victim')[2].pid, 'SIGKILL');
    await until('the third exit', () => events.exits[2]);
    expect(events.exits[2].uptimeMs).toBeGreaterThanOrEqual(300);
    expect(events.exits[2].restartInMs).toBe(100);
  });

  it('reports a child started without restart as fatal instead of restarting it', async () => {
    supervisor = new Supervisor({ backoff: { initialMs: 50, maxMs: 50, resetAfterMs: 1_000 } });
    const fatal = new Promise<{ name: string; message: string }>((done) =>
      supervisor?.on('fatal', done),
    );
    const events = record(supervisor);
    supervisor.start('database', {
      command: process.execPath,
      args: crashAfter(10),
      restart: false,
    });
    await expect(fatal).resolves.toEqual({
      name: 'database',
      message: 'database exited (exit code 3)',
    });
    await new Promise((done) => setTimeout(done, 150));
    expect(events.of('database')).toHaveLength(1);
  });

  it('stop() cancels a pending restart and stops the others in the order given', async () => {
    supervisor = new Supervisor({
      backoff: { initialMs: 10_000, maxMs: 10_000, resetAfterMs: 60_000 },
      stopTimeoutMs: 2_000,
    });
    const events = record(supervisor);
    supervisor.start('front', { command: process.execPath, args: STEADY });
    supervisor.start('back', { command: process.execPath, args: STEADY });
    supervisor.start('crasher', { command: process.execPath, args: crashAfter(10) });
    await until('the crash', () => events.exits.find((e) => e.name === 'crasher'));
    await until('both steady children', () => events.spawns.length >= 3);
    await supervisor.stop([['front'], ['back']]);
    const stopped = events.exits.filter((e) => e.name !== 'crasher');
    expect(stopped.map((e) => [e.name, e.signal, e.restartInMs])).toEqual([
      ['front', 'SIGTERM', undefined],
      ['back', 'SIGTERM', undefined],
    ]);
    await new Promise((done) => setTimeout(done, 100));
    expect(events.of('crasher')).toHaveLength(1);
    for (const { pid } of events.spawns) expect(alive(pid)).toBe(false);
  });

  it('stops every child when the supervising process receives SIGTERM', async () => {
    const module = pathToFileURL(join(__dirname, 'supervisor.mjs')).href;
    // A supervising process of its own: it prints each child's pid, then waits for a signal.
    const script = `
      import { Supervisor } from ${JSON.stringify(module)};
      const supervisor = new Supervisor({ backoff: { initialMs: 100, maxMs: 400, resetAfterMs: 60000 } });
      supervisor.on('spawn', ({ name, pid }) => console.log(JSON.stringify({ name, pid })));
      supervisor.handleSignals({ order: [['a'], ['b']] });
      const steady = ${JSON.stringify(STEADY)};
      supervisor.start('a', { command: process.execPath, args: steady });
      supervisor.start('b', { command: process.execPath, args: steady });
      supervisor.start('crasher', { command: process.execPath, args: ${JSON.stringify(crashAfter(30))} });
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pids = new Map<string, number[]>();
    let buffered = '';
    parent.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const { name, pid } = JSON.parse(line) as { name: string; pid: number };
        pids.set(name, [...(pids.get(name) ?? []), pid]);
      }
    });
    const exited = new Promise<[number | null, string | null]>((done) =>
      parent.once('exit', (code, signal) => done([code, signal])),
    );
    try {
      // The crasher restarts at least twice while a and b keep running.
      await until('two restarts of the crasher', () => (pids.get('crasher')?.length ?? 0) >= 3);
      expect(pids.get('a')).toHaveLength(1);
      expect(pids.get('b')).toHaveLength(1);
      const running = [pids.get('a')![0], pids.get('b')![0]];
      expect(running.map(alive)).toEqual([true, true]);

      parent.kill('SIGTERM');
      await expect(exited).resolves.toEqual([0, null]);
      // Orphans would be re-parented and keep running; reaped children are gone.
      await until(
        'every child gone',
        () => [...pids.values()].flat().every((pid) => !alive(pid)) || undefined,
      );
    } finally {
      if (parent.exitCode === null) parent.kill('SIGKILL');
      for (const pid of [...pids.values()].flat()) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
