import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { composeMessage } from './compose-message';
import type { ComposedMail } from './compose-message';

export interface ComposeRequest {
  id: number;
  mail: ComposedMail;
  /** The Date header, as epoch milliseconds. */
  date: number;
}

export type ComposeResponse = { id: number; raw: ArrayBuffer } | { id: number; error: string };

interface Task {
  request: ComposeRequest;
  resolve: (raw: Buffer) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  tasks: Map<number, Task>;
}

/** The compiled worker beside this module; absent when running from TypeScript sources (jest). */
const WORKER_FILE = join(__dirname, 'compose.worker.js');

/**
 * `composeMessage` on worker threads. Composing and DKIM-signing (an RSA-2048 signature and a
 * body hash per message) is most of a delivery's CPU; on the main thread it competes with the
 * API and the workers' SQL, on threads it uses the machine's other cores. A thread that dies
 * (it should not) has its messages composed on the main thread instead, and is replaced: a
 * crash of the pool never turns into a failed message. With no threads, or without the
 * compiled worker file, everything is composed on the main thread.
 */
export class ComposePool {
  private readonly threads: Thread[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    size: number,
    private readonly workerFile = WORKER_FILE,
  ) {
    if (!existsSync(workerFile)) return;
    for (let i = 0; i < size; i++) this.threads.push(this.spawn());
  }

  /** Whether messages are composed off the main thread. */
  get threaded(): boolean {
    return this.threads.length > 0;
  }

  compose(mail: ComposedMail, date: Date = new Date()): Promise<Buffer> {
    if (this.threads.length === 0 || this.closed) return composeMessage(mail, date);
    const thread = this.threads.reduce((least, candidate) =>
      candidate.tasks.size < least.tasks.size ? candidate : least,
    );
    return new Promise((resolve, reject) => {
      const request = { id: this.nextId++, mail, date: date.getTime() };
      thread.tasks.set(request.id, { request, resolve, reject });
      thread.worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    // Messages still being composed finish on the main thread.
    for (const thread of threads) this.composeInline(thread);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private spawn(): Thread {
    const thread: Thread = { worker: new Worker(this.workerFile), tasks: new Map() };
    thread.worker.unref();
    thread.worker.on('message', (response: ComposeResponse) => {
      const task = thread.tasks.get(response.id);
      if (!task) return;
      thread.tasks.delete(response.id);
      if ('raw' in response) task.resolve(Buffer.from(response.raw));
      else task.reject(new Error(response.error));
    });
    const replace = () => {
      const index = this.threads.indexOf(thread);
      if (index < 0) return;
      this.threads.splice(index, 1);
      this.composeInline(thread);
      if (!this.closed) this.threads.push(this.spawn());
    };
    thread.worker.on('error', replace);
    thread.worker.on('exit', replace);
    return thread;
  }

  private composeInline(thread: Thread): void {
    const tasks = [...thread.tasks.values()];
    thread.tasks.clear();
    for (const { request, resolve, reject } of tasks)
      composeMessage(request.mail, new Date(request.date)).then(resolve, reject);
  }
}
