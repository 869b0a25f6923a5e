import { randomInt } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { encodeSms } from '@switchboard/contracts';
import { completeJobs, holdJobs, wakeRelay, WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, pgPoolOf, poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { foregroundPriority } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { CarrierSubmitError, SMS_CARRIERS } from '../carriers/sms-carrier';
import type { SmsCarriers, SubmitOutcome } from '../carriers/sms-carrier';
import { smsEvent, SUBMIT_QUEUE } from '../messages';
import type { SmsEventRecord } from '../messages';
import { carrierIdKeys } from './carrier-ids';
import { SubmitRepository } from './submit.repository';
import type { FailedRecord, SentRecord, SubmitRow } from './submit.repository';

/** A carrier that stays unreachable this long after the send fails the message. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
const RETRY_BASE_MS = 5_000;
const RETRY_CAP_MS = 10 * 60_000;
const BATCH_SIZE = 16;
const CONCURRENCY = 64;
const LEASE_MS = 60_000;

type Outcome =
  | { job: Job<{ message_id: string }>; row: SubmitRow; sent: SubmitOutcome; at: Date }
  | { job: Job<{ message_id: string }>; row: SubmitRow; failed: CarrierSubmitError; at: Date };

/**
 * Hands accepted messages to the carriers: a claimed batch is encoded (its parts with an 8-bit
 * concatenation reference of their own) and submitted message by message, then every outcome is
 * recorded in one transaction: `sent` with its carrier ids, `failed` with the carrier's code, or,
 * for a temporary refusal (a bind down, a throttle that outlasted the carrier layer), the job
 * again later with back-off, until `GIVE_UP_AFTER_MS` fails it as `provider_unavailable`.
 */
@Injectable()
export class SubmitRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SubmitRunner.name);
  private readonly pool: Pool;
  private readonly reads: SqlRunner;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly repository: SubmitRepository,
    @Inject(SMS_CARRIERS) private readonly carriers: SmsCarriers,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.reads = poolRunner(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<{ message_id: string }>({
      queue: SUBMIT_QUEUE,
      concurrency: CONCURRENCY,
      batchSize: BATCH_SIZE,
      leaseMs: LEASE_MS,
      priority: foregroundPriority,
      handleBatch: (jobs) => this.submit(jobs),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async submit(jobs: Job<{ message_id: string }>[]): Promise<void> {
    const { carriers } = this;
    const rows = new Map(
      (
        await this.repository.messages(
          this.reads,
          jobs.map((job) => job.payload.message_id),
        )
      ).map((row) => [row.id, row]),
    );
    // A message already handed over (a rerun after a crash past the record) or gone: nothing to send.
    const due = jobs.filter((job) => rows.get(job.payload.message_id)?.status === 'accepted');
    const outcomes: Outcome[] = await Promise.all(
      due.map(async (job): Promise<Outcome> => {
        const row = rows.get(job.payload.message_id) as SubmitRow;
        try {
          const encoded = encodeSms(row.text, { reference: randomInt(256) });
          const sent = await carriers.submit({
            messageId: row.id,
            from: row.from_address,
            to: row.to_address,
            dataCoding: encoded.dataCoding,
            parts: encoded.parts,
          });
          return { job, row, sent, at: new Date() };
        } catch (err) {
          const failed =
            err instanceof CarrierSubmitError
              ? err
              : new CarrierSubmitError((err as Error).message, true, 'provider_unavailable');
          return { job, row, failed, at: new Date() };
        }
      }),
    );
    await this.record(jobs, outcomes);
  }

  private async record(jobs: Job<{ message_id: string }>[], outcomes: Outcome[]): Promise<void> {
    const sent: SentRecord[] = [];
    const failed: FailedRecord[] = [];
    const events: SmsEventRecord[] = [];
    const finished = new Set<Job<{ message_id: string }>>();
    const retries: Array<{ job: Job<{ message_id: string }>; at: Date }> = [];
    for (const outcome of outcomes) {
      const { job, row, at } = outcome;
      const subject = {
        messageId: row.id,
        workspaceId: row.workspace_id,
        to: row.to_address,
        from: row.from_address,
        tags: row.tags,
        metadata: row.metadata,
      };
      if ('sent' in outcome) {
        const { carrier, carrierMessageIds } = outcome.sent;
        sent.push({
          id: row.id,
          carrier,
          sentAt: at,
          workspaceId: row.workspace_id,
          parts: carrierMessageIds.map((id, index) => ({
            index,
            carrierMessageId: id,
            keys: carrierIdKeys(id),
          })),
        });
        events.push(smsEvent('sms.sent', subject, at, { carrier }));
        finished.add(job);
        continue;
      }
      const error = outcome.failed;
      const expired = at.getTime() - new Date(row.created_at).getTime() >= GIVE_UP_AFTER_MS;
      if (error.temporary && !expired) {
        const delay = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(job.attempts - 1, 20));
        retries.push({ job, at: new Date(at.getTime() + delay) });
        this.logger.warn(
          `submit of ${row.id} refused for now (${error.message}); retrying in ${delay} ms`,
        );
        continue;
      }
      const code = error.temporary ? 'provider_unavailable' : error.code;
      const description = error.temporary
        ? `no carrier took the message within 24 hours (last: ${error.message})`
        : error.message;
      failed.push({ id: row.id, code, description, at });
      events.push(
        smsEvent('sms.failed', subject, at, {
          carrier: error.carrier ?? null,
          error: {
            code,
            description,
            carrier_error_code:
              error.commandStatus === undefined
                ? null
                : `0x${error.commandStatus.toString(16).padStart(8, '0')}`,
            occurred_at: at.toISOString(),
          },
        }),
      );
      finished.add(job);
    }
    // Jobs whose message needs nothing (already sent, gone) complete with the rest.
    const handled = new Set(outcomes.map((outcome) => outcome.job));
    for (const job of jobs) if (!handled.has(job)) finished.add(job);
    await inPgTransaction(this.pool, async (tx) => {
      // A job another worker took over (this one's lease ran out) is left to it, unrecorded.
      const held = new Set(await holdJobs(tx, jobs));
      const ours = new Set([...held].map((job) => job.payload.message_id));
      await this.repository.record(
        tx,
        sent.filter((record) => ours.has(record.id)),
        failed.filter((record) => ours.has(record.id)),
        events.filter((event) => ours.has(event.messageId)),
      );
      await completeJobs(
        tx,
        [...finished].filter((job) => held.has(job)),
      );
      for (const retry of retries) if (held.has(retry.job)) await retry.job.retryAt(tx, retry.at);
    });
    if (events.length > 0) wakeRelay(this.pool, 'sms_whatsapp');
  }
}
