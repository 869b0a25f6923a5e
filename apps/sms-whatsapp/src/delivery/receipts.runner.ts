import { Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { completeJobs, holdJobs, wakeRelay, WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { smsEvent } from '../messages';
import type { SmsEventRecord } from '../messages';
import { finalEvent, finalOf, subjectOf } from './message-finals';
import { receiptOutcome } from './receipt-outcome';
import { RECEIPTS_QUEUE, ReceiptsRepository } from './receipts.repository';
import type { FinalUpdate, MatchedReceipt } from './receipts.repository';

type ReceiptJob = Job<{ receipt_id: string }>;

/** A receipt whose part is still unknown this long after it came is given up (logged). */
const UNMATCHED_GIVE_UP_MS = 24 * 3_600_000;
const RETRY_BASE_MS = 500;
const RETRY_CAP_MS = 5 * 60_000;

/**
 * Applies recorded receipts, a claimed batch per transaction and a fixed number of statements
 * for all of it: each receipt finds its part by carrier and id key (`carrierMessageIdKey`; the
 * carrier layer has turned a receipt in another base back); a step (ACCEPTD, ENROUTE) becomes a
 * timeline event; a final state settles its part, and the message becomes final once every part has (the worst part's outcome wins). A
 * receipt that came before its submit's response was recorded finds no part yet: its job runs
 * again with back-off, never dropped before a day has passed.
 */
@Injectable()
export class ReceiptsRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReceiptsRunner.name);
  private readonly pool: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly repository: ReceiptsRepository,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<{ receipt_id: string }>({
      queue: RECEIPTS_QUEUE,
      concurrency: 64,
      batchSize: 64,
      leaseMs: 30_000,
      handleBatch: (jobs) => this.apply(jobs),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async apply(jobs: ReceiptJob[]): Promise<void> {
    const wrote = await inPgTransaction(this.pool, async (tx) => {
      const held = await holdJobs(tx, jobs);
      const jobOf = new Map(held.map((job) => [job.payload.receipt_id, job]));
      const matched = await this.repository.match(tx, [...jobOf.keys()]);
      const now = new Date();
      const found = matched.filter((receipt) => receipt.message_id !== null);
      const done: ReceiptJob[] = found.map(
        (receipt) => jobOf.get(receipt.receipt_id) as ReceiptJob,
      );
      for (const receipt of matched.filter((r) => r.message_id === null)) {
        const job = jobOf.get(receipt.receipt_id) as ReceiptJob;
        if (now.getTime() - new Date(receipt.received_at).getTime() >= UNMATCHED_GIVE_UP_MS) {
          this.logger.warn(
            `receipt ${receipt.receipt_id} from ${receipt.carrier} (${receipt.stat}) matches no submitted part after a day; dropped`,
          );
          done.push(job);
          found.push(receipt);
        } else {
          const delay = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(job.attempts - 1, 20));
          await job.retryAt(tx, new Date(now.getTime() + delay));
        }
      }
      const { finals, events } = await this.settle(
        tx,
        found.filter((r) => r.message_id !== null),
        now,
      );
      await this.repository.finish(
        tx,
        finals,
        events,
        found.map((r) => r.receipt_id),
      );
      await completeJobs(tx, done);
      return events.length > 0;
    });
    if (wrote) wakeRelay(this.pool, 'sms_whatsapp');
  }

  /** The parts' new states, then what each message touched becomes. */
  private async settle(
    tx: Parameters<ReceiptsRepository['match']>[0],
    receipts: MatchedReceipt[],
    now: Date,
  ): Promise<{ finals: FinalUpdate[]; events: SmsEventRecord[] }> {
    if (receipts.length === 0) return { finals: [], events: [] };
    // One update per part: a final receipt outranks a step that came in the same batch.
    const perPart = new Map<string, MatchedReceipt>();
    for (const receipt of receipts) {
      const key = `${receipt.message_id} ${receipt.part_index}`;
      const earlier = perPart.get(key);
      if (!earlier || receiptOutcome(receipt.stat).final || !receiptOutcome(earlier.stat).final)
        perPart.set(key, receipt);
    }
    const targets = await this.repository.applyToParts(
      tx,
      [...perPart.values()].map((receipt) => ({
        message_id: receipt.message_id as string,
        part_index: receipt.part_index as number,
        stat: receipt.stat,
        err: receipt.err,
        final: receiptOutcome(receipt.stat).final,
        at: receipt.received_at,
      })),
    );
    const events: SmsEventRecord[] = [];
    const finals: FinalUpdate[] = [];
    const byId = new Map(targets.map((target) => [target.id, target]));
    // The timeline keeps the order receipts came in, even when batches commit out of order; a
    // receipt that beat its submit's response is dated at the response (sent, then delivered).
    const latest = new Map<string, Date>();
    for (const receipt of receipts) {
      const outcome = receiptOutcome(receipt.stat);
      const target = byId.get(receipt.message_id as string);
      if (!target) continue;
      const at = laterOf(receipt.received_at, target.sent_at);
      // A late step (ENROUTE after DELIVRD, or after the receipt time-out's `expired`) would
      // follow the final event on the timeline.
      if (!outcome.final && target.status === 'sent')
        events.push(smsEvent(outcome.event, subjectOf(target), at, { carrier: target.carrier }));
      if (at > (latest.get(target.id) ?? 0)) latest.set(target.id, at);
    }
    for (const target of targets) {
      const final = finalOf(target, latest.get(target.id) ?? now);
      if (!final) continue;
      finals.push(final);
      events.push(finalEvent(target, final));
    }
    return { finals, events };
  }
}

function laterOf(a: Date | string, b: Date | string | null): Date {
  const first = new Date(a);
  return b !== null && new Date(b) > first ? new Date(b) : first;
}
