import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

export interface ServiceProcessHandle {
  name: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Runs `node dist/apps/<app>/src/main.js` with the given environment, keeping its output. */
export function spawnNode(
  name: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): ServiceProcessHandle {
  const child = spawn(process.execPath, ['--enable-source-maps', script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return {
    name,
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Runs a process to completion; rejects with its output when it fails. */
export function runNode(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const handle = spawnNode(script, script, args, env);
    handle.child.once('exit', (code) =>
      code === 0
        ? resolve(handle.output())
        : reject(new Error(`${script} ${args.join(' ')} exited ${code}: ${handle.output()}`)),
    );
  });
}

/** Polls a URL until it answers 200, or fails with what it last saw. */
export async function waitForOk(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms: ${last}`);
}
