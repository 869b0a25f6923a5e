// Types of supervisor.mjs, for its TypeScript spec.
import type { ChildProcess, StdioNull, StdioPipe } from 'node:child_process';
import { EventEmitter } from 'node:events';

export interface Backoff {
  initialMs: number;
  maxMs: number;
  resetAfterMs: number;
}
export declare const DEFAULT_BACKOFF: Readonly<Backoff>;
export declare function restartDelay(crashes: number, backoff?: Backoff): number;
export declare function describeExit(code: number | null, signal: NodeJS.Signals | null): string;
export declare function formatDuration(ms: number): string;

export interface ChildSpec {
  command: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  stdin?: StdioNull | StdioPipe;
  restart?: boolean;
}
export interface SpawnEvent {
  name: string;
  pid: number;
  restarts: number;
}
export interface ExitEvent {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  uptimeMs: number;
  restarts: number;
  restartInMs: number | undefined;
}
export interface FatalEvent {
  name: string;
  message: string;
}

export declare class Supervisor extends EventEmitter {
  constructor(options?: { cwd?: string; backoff?: Backoff; stopTimeoutMs?: number });
  readonly stopping: boolean;
  start(name: string, spec: ChildSpec): ChildProcess;
  setRestart(name: string, restart: boolean): void;
  child(name: string): ChildProcess | undefined;
  stop(order?: string[][]): Promise<void>;
  killSync(): void;
  handleSignals(options?: {
    order?: string[][];
    exit?: (code: number) => void;
    onSignal?: (signal: NodeJS.Signals) => void;
  }): void;
  on(
    event: 'output',
    listener: (name: string, stream: 'stdout' | 'stderr', line: string) => void,
  ): this;
  on(event: 'spawn', listener: (event: SpawnEvent) => void): this;
  on(event: 'exit', listener: (event: ExitEvent) => void): this;
  on(event: 'fatal', listener: (event: FatalEvent) => void): this;
}
