import { Logger } from '@nestjs/common';
import { beginWith, READ_IN_INDEX_ORDER } from '@switchboard/persistence';
import type { Pool, PoolClient } from 'pg';
import { backoffMs } from '../work-queue/backoff';
import { PgListener } from '../work-queue/pg-listener';
import type { QueueLogger } from '../work-queue/queue-runner';
import type { EventPublisher, OutboxEvent } from '@switchboard/platform';
import { outboxChannel } from './outbox.table';

export interface OutboxRelayOptions {
  /**
   * Most rows published per transaction. Default 500: a batch takes what is there, so a quiet
   * outbox goes out row by row as before, and a burst goes out in fewer, larger transactions
   * (each consumer stores a batch in one statement).
   */
  batchSize?: number;
  /** Longest sleep between looks at the table (a missed NOTIFY). Default 5 s. */
  pollMs?: number;
  /**
   * How long a notification waits before the relay looks, so the commits of that time go out in
   * one batch (one transaction and one publish) instead of one each. Default 0: at once.
   */
  gatherMs?: number;
  /** Back-off after a failed publish, doubled per failure up to `backoffCapMs`. Default 500 ms. */
  backoffBaseMs?: number;
  /** Default 60 s. */
  backoffCapMs?: number;
  /** How long published rows are kept (for inspection) before they are deleted. Default 7 days. */
  retentionMs?: number;
  /** How often old published rows are deleted. Default 1 hour. */
  purgeEveryMs?: number;
  logger?: QueueLogger;
}

interface OutboxRow {
  id: string;
  workspace_id: string;
  payload: { type: string; timestamp: string; data: unknown };
}

const PURGE_CHUNK = 10_000;
const DAY_MS = 86_400_000;

/**
 * Publishes a schema's outbox. Each batch is one transaction: lock the oldest unpublished rows
 * (`FOR UPDATE SKIP LOCKED`, so several relays, one per replica, take disjoint batches and
 * never publish a row twice), publish them in written order, mark them `published_at`, commit.
 * A failed publish rolls back (the rows stay unpublished) and is retried with back-off. If the
 * commit itself is lost after a publish, the batch goes out again: delivery is at least once,
 * and consumers dedupe by the stable event id.
 *
 * Wakes on the NOTIFY `writeOutboxEvents` sends at commit, and polls in case one is missed.
 */
export class OutboxRelay {
  private readonly logger: QueueLogger;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private listener?: PgListener;
  private timer?: NodeJS.Timeout;
  private gatherTimer?: NodeJS.Timeout;
  private purgeTimer?: NodeJS.Timeout;
  private stopped = false;
  private busy = false;
  private again = false;
  private pumping?: Promise<void>;
  private purging?: Promise<unknown>;
  private failures = 0;
  /** Until then only the timer may start a pump: notifications do not cut a back-off short. */
  private backoffUntil = 0;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly publisher: EventPublisher,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(OutboxRelay.name);
    this.batchSize = options.batchSize ?? 500;
    this.pollMs = options.pollMs ?? 5000;
  }

  start(): void {
    const channel = outboxChannel(this.schema);
    this.listener = new PgListener(this.pool.options, {
      channel,
      onNotify: () => this.gather(),
      onListening: () => this.kick(),
      onError: (err) =>
        this.logger.warn(
          `LISTEN ${channel} lost (${err.message}); reconnecting, polling meanwhile`,
        ),
    });
    void this.listener.start();
    this.purgeTimer = setInterval(() => {
      this.purging ??= this.purge()
        .catch((err: unknown) => this.logger.warn(`purging ${channel} failed (${message(err)})`))
        .finally(() => (this.purging = undefined));
    }, this.options.purgeEveryMs ?? 3_600_000);
    this.purgeTimer.unref();
    this.kick();
  }

  /** Stops relaying; resolves once the batch in progress has committed or rolled back. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.gatherTimer);
    clearInterval(this.purgeTimer);
    await this.listener?.close();
    await this.pumping;
    await this.purging;
  }

  /** Deletes published rows older than the retention; resolves to their number. */
  async purge(): Promise<number> {
    const retentionMs = this.options.retentionMs ?? 7 * DAY_MS;
    let total = 0;
    for (;;) {
      const { rowCount } = await this.pool.query(
        `DELETE FROM "${this.schema}".outbox WHERE id IN (
           SELECT id FROM "${this.schema}".outbox
           WHERE published_at < now() - $1 * interval '1 millisecond'
           LIMIT ${PURGE_CHUNK}
         )`,
        [retentionMs],
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < PURGE_CHUNK) return total;
    }
  }

  /** A notification: looks after `gatherMs`, once for every notification meanwhile. */
  private gather(): void {
    const gatherMs = this.options.gatherMs ?? 0;
    if (gatherMs <= 0) return this.kick();
    if (this.gatherTimer) return;
    this.gatherTimer = setTimeout(() => {
      this.gatherTimer = undefined;
      this.kick();
    }, gatherMs);
    this.gatherTimer.unref();
  }

  private kick(fromTimer = false): void {
    if (this.stopped || (!fromTimer && Date.now() < this.backoffUntil)) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.pumping = this.pump();
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.relayAll();
      } while (this.again && !this.stopped);
      this.failures = 0;
      this.arm(this.pollMs);
    } catch (err) {
      this.failures++;
      const delay = backoffMs(
        this.failures,
        this.options.backoffBaseMs ?? 500,
        this.options.backoffCapMs ?? 60_000,
      );
      this.backoffUntil = Date.now() + delay;
      this.logger.warn(
        `publishing the ${this.schema} outbox failed ${this.failures} time(s) (${message(err)}); retrying in ${delay} ms`,
      );
      this.arm(delay);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Publishes batches until one comes back short. While a full batch is published, the next
   * one is already read and locked in a transaction of its own (its rows are the next ones: the
   * batch before holds its own locked), so the reads' round trips leave the publishing chain;
   * each batch still goes out only once the one before it has committed.
   */
  private async relayAll(): Promise<void> {
    let reading: Promise<ReadBatch> | undefined = this.readBatch();
    while (reading && !this.stopped) {
      const batch: ReadBatch = await reading;
      const full = batch.rows.length === this.batchSize;
      reading = full && this.canReadAhead() ? this.readBatch() : undefined;
      // Settled later, or abandoned: never an unhandled rejection meanwhile.
      reading?.catch(() => undefined);
      try {
        await this.publishBatch(batch);
      } catch (err) {
        // Given back first: rolled back, this batch's rows are free, and the batch read ahead
        // may have locked them, which the attempt's count below would wait for.
        if (reading) await reading.then(abandon, () => undefined);
        reading = undefined;
        await this.countAttempt(batch);
        throw err;
      } finally {
        release(batch);
      }
      // A full batch not read ahead: read the next one now.
      if (full && !reading && !this.stopped) reading = this.readBatch();
    }
    if (reading) await reading.then(abandon, () => undefined);
  }

  /**
   * Whether a second connection can be held for the batch read ahead and still leave one for
   * everything else: the publish may need the same pool (an in-process consumer's query), and
   * a pool of two held by the relay alone would never give it one.
   */
  private canReadAhead(): boolean {
    const { idleCount, totalCount, waitingCount } = this.pool;
    const max = this.pool.options.max ?? 10;
    return idleCount + (max - totalCount) - waitingCount >= 2;
  }

  private arm(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(true), delayMs);
    this.timer.unref();
  }

  /** Begins a batch's transaction and locks its rows (none when the outbox is published). */
  private async readBatch(): Promise<ReadBatch> {
    const client = await this.pool.connect();
    const batch: ReadBatch = { client, rows: [], onError: () => undefined };
    // A checked-out client's 'error' (the backend went away) has no pool listener: unheard, it
    // would end the process. The failing query rejects too; this only keeps the process alive.
    batch.onError = (err: Error) => (batch.broken ??= err);
    client.on('error', batch.onError);
    try {
      await client.query(beginWith(READ_IN_INDEX_ORDER));
      const { rows } = await client.query<OutboxRow>(unpublishedBatchStatement(this.schema), [
        this.batchSize,
      ]);
      batch.rows = rows;
      return batch;
    } catch (err) {
      batch.broken = (await rollback(client, err)) ?? batch.broken;
      release(batch);
      throw err;
    }
  }

  /** Publishes a read batch in written order, marks its rows and commits; rolls back on failure. */
  private async publishBatch(batch: ReadBatch): Promise<void> {
    const { client, rows } = batch;
    try {
      if (rows.length > 0) {
        await this.publisher.publish(rows.map(toEvent));
        await client.query(
          `UPDATE "${this.schema}".outbox SET published_at = now(), attempts = attempts + 1
           WHERE id = ANY($1::text[])`,
          [rows.map((row) => row.id)],
        );
      }
      await client.query('COMMIT');
    } catch (err) {
      batch.broken = (await rollback(client, err)) ?? batch.broken;
      throw err;
    }
  }

  /** Counts a failed attempt outside the rolled-back transaction, so a stuck row shows it. */
  private async countAttempt(batch: ReadBatch): Promise<void> {
    if (batch.broken || batch.rows.length === 0) return;
    await batch.client
      .query(
        `UPDATE "${this.schema}".outbox SET attempts = attempts + 1
         WHERE id = ANY($1::text[]) AND published_at IS NULL`,
        [batch.rows.map((row) => row.id)],
      )
      .catch(() => undefined);
  }
}

/** A batch's rows, locked by the transaction open on its client. */
interface ReadBatch {
  client: PoolClient;
  rows: OutboxRow[];
  onError: (err: Error) => void;
  /** Set when the connection broke: the client is discarded, not returned to the pool. */
  broken?: Error;
}

/** Rolls back a batch read ahead that will not be published (its rows stay for the next look). */
async function abandon(batch: ReadBatch): Promise<void> {
  batch.broken = (await rollback(batch.client, new Error('abandoned'))) ?? batch.broken;
  release(batch);
}

function release(batch: ReadBatch): void {
  batch.client.off('error', batch.onError);
  batch.client.release(batch.broken);
}

/** The oldest unpublished rows of a schema's outbox, at most $1, locked for this relay. */
export function unpublishedBatchStatement(schema: string): string {
  return `SELECT id, workspace_id, payload FROM "${schema}".outbox
    WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`;
}

/** Rolls back after a failure; returns the error to discard the connection with if it is unusable. */
async function rollback(client: PoolClient, cause: unknown): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch {
    return cause instanceof Error ? cause : new Error(String(cause));
  }
}

function toEvent(row: OutboxRow): OutboxEvent {
  const { type, timestamp, data } = row.payload;
  return { id: row.id, type, workspaceId: row.workspace_id, timestamp, data };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
