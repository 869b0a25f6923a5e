import { Worker } from 'node:worker_threads';
import { addMetricsSource, foregroundPriority } from '@switchboard/platform';
import type { MetricsSnapshot, ReadinessCheck } from '@switchboard/platform';
import type { Logger } from 'pino';
import type { BackgroundData, FromBackground, ToBackground } from './background-protocol';

export interface BackgroundHostOptions {
  /** The compiled entry, `background-thread.js`. */
  entry: string;
  data: BackgroundData;
  logger: Logger;
  /** How long a stop may take before the thread is ended. Default 20 s. */
  stopTimeoutMs?: number;
}

/** How often the request loop's share for background work is passed on (as ForegroundPriority reads it). */
const SHARE_EVERY_MS = 100;
/** How long a metrics scrape waits for the thread's part (a restarting thread has none). */
const METRICS_TIMEOUT_MS = 1000;
const RESTART_BASE_MS = 500;
const RESTART_CAP_MS = 30_000;
/** A thread that ran this long before it died restarts after the base delay again. */
const STABLE_AFTER_MS = 60_000;

/**
 * Runs the background thread (background-thread.ts) and keeps it running: a thread that dies
 * (an uncaught error, an exit) is logged and started again after a back-off, and nothing is lost
 * meanwhile, since its work is rows in PostgreSQL whose leases run out (ADR 5). It passes the
 * request loop's share for background work over (ADR 9), and its readiness is the gateway's
 * `background` check: failing while the thread starts, restarts or stopped. The thread's metrics
 * join the process's metrics page.
 */
export class BackgroundHost {
  private worker?: Worker;
  private running = false;
  private stopping = false;
  private failures = 0;
  private startedAt = 0;
  private restartTimer?: NodeJS.Timeout;
  private shareTimer?: NodeJS.Timeout;
  private stopReadings?: () => void;
  private sentShare = 1;
  private removeMetrics?: () => void;
  private nextMetricsId = 1;
  private readonly metricsAsked = new Map<number, (metrics: MetricsSnapshot) => void>();

  constructor(private readonly options: BackgroundHostOptions) {}

  readonly readiness: ReadinessCheck = {
    name: 'background',
    check: () =>
      this.running ? Promise.resolve() : Promise.reject(new Error('background thread not running')),
  };

  /** Resolves once the thread runs every background part; rejects if the first start fails. */
  async start(): Promise<void> {
    await this.spawn();
    // The request loop's readings start now; nothing in this thread uses the share itself.
    this.stopReadings = foregroundPriority.onRaise(() => undefined);
    this.shareTimer = setInterval(() => this.passShare(), SHARE_EVERY_MS);
    this.shareTimer.unref();
    this.removeMetrics = addMetricsSource(() => this.metrics());
  }

  /** Ends the thread at once, as a crash would: it is restarted like one. */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  /** Lets the background work finish its batches and close its pools; ends the thread. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    clearInterval(this.shareTimer);
    this.stopReadings?.();
    this.removeMetrics?.();
    const worker = this.worker;
    this.running = false;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const timer = setTimeout(() => {
      this.options.logger.warn('background thread did not stop in time; ending it');
      void worker.terminate();
    }, this.options.stopTimeoutMs ?? 20_000);
    worker.postMessage({ kind: 'stop' } satisfies ToBackground);
    await exited;
    clearTimeout(timer);
  }

  /** The thread's registry, or nothing if it does not answer in time (starting, restarting). */
  private metrics(): Promise<MetricsSnapshot> {
    const worker = this.worker;
    if (!worker || !this.running) return Promise.resolve([]);
    const id = this.nextMetricsId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.metricsAsked.delete(id);
        resolve([]);
      }, METRICS_TIMEOUT_MS);
      this.metricsAsked.set(id, (metrics) => {
        clearTimeout(timer);
        this.metricsAsked.delete(id);
        resolve(metrics);
      });
      worker.postMessage({ kind: 'metrics', id } satisfies ToBackground);
    });
  }

  private passShare(): void {
    const share = foregroundPriority.share;
    if (share === this.sentShare || !this.running) return;
    this.sentShare = share;
    this.worker?.postMessage({ kind: 'share', share } satisfies ToBackground);
  }

  /** Starts a thread; resolves when it reports ready, rejects if it fails or dies first. */
  private spawn(): Promise<void> {
    const { logger } = this.options;
    const worker = new Worker(this.options.entry, { workerData: this.options.data });
    this.worker = worker;
    this.startedAt = Date.now();
    this.sentShare = 1;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      let failure: Error | undefined;
      worker.on('message', (message: FromBackground) => {
        if (message.kind === 'ready') {
          ready = true;
          this.running = true;
          logger.info({ services: message.services }, 'background thread running');
          resolve();
        } else if (message.kind === 'metrics') this.metricsAsked.get(message.id)?.(message.metrics);
        else if (message.kind === 'failed') failure = new Error(message.message);
      });
      worker.on('error', (err) => {
        failure = err;
        logger.error({ err }, 'background thread failed');
      });
      worker.on('exit', (code) => {
        this.running = false;
        if (this.worker === worker) this.worker = undefined;
        if (!ready) return reject(failure ?? new Error(`background thread exited with ${code}`));
        if (!this.stopping) this.restartLater(code);
      });
    });
  }

  private restartLater(code: number): void {
    if (Date.now() - this.startedAt > STABLE_AFTER_MS) this.failures = 0;
    const delay = Math.min(RESTART_CAP_MS, RESTART_BASE_MS * 2 ** this.failures++);
    this.options.logger.error(
      { code, restartInMs: delay },
      `background thread ended (exit code ${code}); restarting in ${delay} ms`,
    );
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      this.spawn().catch((err: Error) => {
        this.options.logger.error({ err }, 'background thread could not start again');
        if (!this.stopping) this.restartLater(1);
      });
    }, delay);
  }
}
