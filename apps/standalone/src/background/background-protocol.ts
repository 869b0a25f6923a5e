import type { MetricsSnapshot } from '@switchboard/platform';

/** What the background thread is given when it starts (`workerData`). */
export interface BackgroundData {
  /** The environment the services' settings are read from, as the request thread resolved it. */
  env: Record<string, string | undefined>;
  logLevel: string;
}

/** From the request thread to the background thread. */
export type ToBackground =
  /** The share of their concurrency background queues may use (ADR 9), read on the request loop. */
  | { kind: 'share'; share: number }
  /** Answer the thread's metrics (the process's metrics port shows them with its own). */
  | { kind: 'metrics'; id: number }
  /** Stop the background work (queues finish their batches, pools close), then end the thread. */
  | { kind: 'stop' };

/** From the background thread to the request thread. */
export type FromBackground =
  | { kind: 'ready'; services: string[] }
  | { kind: 'metrics'; id: number; metrics: MetricsSnapshot }
  | { kind: 'stopped' }
  /** Starting failed: the thread ends after this message. */
  | { kind: 'failed'; message: string };
