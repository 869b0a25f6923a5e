import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WEBHOOK_LIMITS } from '@switchboard/contracts';
import { inPgTransaction, newId, pgPoolOf } from '@switchboard/persistence';
import {
  CommitBatcher,
  completeJobs,
  forEachJob,
  holdJobs,
  jobFences,
  markCompleted,
  NO_RESERVATION,
  WorkQueue,
} from '@switchboard/background';
import type { Job, JobReservation, WorkQueueWorker } from '@switchboard/background';
import { dnsResolver, SealedBox } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { retryDelaysOf, WEBHOOKS_CONFIG } from '../config/webhooks.config';
import type { WebhooksConfig } from '../config/webhooks.config';
import { DeliveriesRepository } from './deliveries.repository';
import type {
  AttemptRecord,
  ClaimedDelivery,
  EndpointHealth,
  PendingDelivery,
  StatusChange,
} from './deliveries.repository';
import { DELIVER_QUEUE } from './delivery.queue';
import { EndpointPacer } from './endpoint-pacer';
import type { PaceFeedback } from './endpoint-pacer';
import type { DeliverPayload } from './delivery.queue';
import { sendWebhook } from './http-sender';
import type { SendOutcome } from './http-sender';
import { nextRetryDelayMs, retryAfterMs } from './retry-schedule';
import type { HostResolver } from '../endpoints/url-policy';
import { signedHeaders } from './signing';
import {
  webhookAttemptDuration,
  webhookAttempts,
  webhookDeliveryLag,
  webhookPostponed,
} from './webhook-metrics';

const BATCH_SIZE = 32;

type Finished =
  | { job: Job<DeliverPayload>; delivery: PendingDelivery; outcome: SendOutcome; attemptedAt: Date }
  /** Not attempted: the endpoint asked (Retry-After) to be left alone until then. */
  | { job: Job<DeliverPayload>; postponedUntil: Date };

/** A wait for the endpoint's turn this long re-reads the delivery before it is sent. */
const RECHECK_AFTER_WAIT_MS = 250;

/** Signing secrets kept opened; beyond it the cache starts over (secrets rarely change). */
const MAX_OPENED_SECRETS = 10_000;

/** Longest pause a receiver's Retry-After holds its endpoint's deliveries back. */
const MAX_PAUSE_MS = 60_000;

/**
 * Delivers webhooks: runs delivery jobs in batches, claimed or handed over by the intake already
 * claimed with what their sends need (`adopt`), sends each within its endpoint's window
 * (`EndpointPacer`: it starts at WEBHOOKS_ENDPOINT_CONCURRENCY, grows while the receiver keeps
 * up, to WEBHOOKS_ENDPOINT_MAX_CONCURRENCY, and shrinks on errors or a Retry-After, so one slow
 * receiver cannot hold every slot), and records the attempts that finish together in one transaction: the attempt rows,
 * each delivery's state, the endpoints' health, and each job completed or rescheduled on the
 * retry schedule. A crash loses nothing: a claimed job whose worker died is taken over when
 * its lease runs out, and `webhook-id` stays the same on the retry.
 */
@Injectable()
export class DeliveryRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly pool: Pool;
  private readonly pacer: EndpointPacer;
  private readonly schedule: number[];
  private readonly resolver: HostResolver;
  private worker?: WorkQueueWorker;
  private readonly recorder = new CommitBatcher<Finished>((batch) => this.record(batch));
  /** Signing secrets opened, by their sealed form (a rotated secret is a new entry). */
  private readonly openedSecrets = new Map<string, string>();
  /** What the intake read for the jobs it stored claimed, by job id, until they run. */
  private readonly prefetched = new Map<string, PendingDelivery>();

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @InjectDataSource('webhooks') dataSource: DataSource,
    private readonly repository: DeliveriesRepository,
    private readonly box: SealedBox,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.pacer = new EndpointPacer({
      initial: config.WEBHOOKS_ENDPOINT_CONCURRENCY,
      max: Math.max(config.WEBHOOKS_ENDPOINT_CONCURRENCY, config.WEBHOOKS_ENDPOINT_MAX_CONCURRENCY),
      maxPauseMs: MAX_PAUSE_MS,
      // About one attempt's time: longer, and the slot could have sent another delivery.
      maxQueueWaitMs: config.WEBHOOKS_TIMEOUT_MS,
    });
    this.schedule = retryDelaysOf(config);
    this.resolver = dnsResolver(config.DNS_SERVERS, config.DNS_TIMEOUT_MS);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'webhooks').start<DeliverPayload>({
      queue: DELIVER_QUEUE,
      concurrency: this.config.WEBHOOKS_CONCURRENCY,
      batchSize: Math.min(BATCH_SIZE, this.config.WEBHOOKS_CONCURRENCY),
      // Renewed while the worker lives, so a slow receiver never loses it the job.
      leaseMs: this.config.WEBHOOKS_JOB_LEASE_SECONDS * 1000,
      handleBatch: (jobs) => this.deliver(jobs),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  /** Free slots for deliveries the intake stores with their jobs claimed (`EventIntake`). */
  reserve(max: number): JobReservation {
    return this.worker?.reserve(max) ?? NO_RESERVATION;
  }

  /** Runs the deliveries the intake stored claimed on `reservation`, with what it read for them. */
  adopt(
    reservation: JobReservation,
    claimed: readonly ClaimedDelivery[],
    othersQueued: boolean,
  ): void {
    // Set first: a batch's handler reads them as it starts, inside `adopt`.
    for (const { job, delivery } of claimed) this.prefetched.set(job.id, delivery);
    const running = reservation.adopt(
      claimed.map((entry) => entry.job),
      othersQueued,
    );
    if (!running) for (const { job } of claimed) this.prefetched.delete(job.id);
  }

  private async deliver(jobs: Job<DeliverPayload>[]): Promise<void> {
    const found = new Map<string, PendingDelivery>();
    const unread = new Set<string>();
    for (const job of jobs) {
      const delivery = this.prefetched.get(job.id);
      this.prefetched.delete(job.id);
      if (delivery) found.set(delivery.id, delivery);
      else unread.add(job.payload.delivery_id);
    }
    if (unread.size > 0)
      for (const delivery of await this.repository.pending([...unread]))
        found.set(delivery.id, delivery);
    const settled: Job<DeliverPayload>[] = [];
    const skipped: string[] = [];
    const sends: Array<{ job: Job<DeliverPayload>; delivery: PendingDelivery }> = [];
    for (const job of jobs) {
      const delivery = found.get(job.payload.delivery_id);
      // Gone with its endpoint (deleted), or already final: nothing to send.
      if (!delivery || delivery.status !== 'pending') settled.push(job);
      else if (delivery.endpoint_status === 'paused') {
        skipped.push(delivery.id);
        settled.push(job);
      } else sends.push({ job, delivery });
    }
    if (settled.length > 0)
      await inPgTransaction(this.pool, async (manager) => {
        const held = await holdJobs(manager, settled);
        await this.repository.skip(
          manager,
          skipped.filter((id) => held.some((job) => job.payload.delivery_id === id)),
        );
        await completeJobs(manager, held);
      });
    // Each slot is freed as its attempt is recorded: a batch waiting on one slow receiver would
    // otherwise hold the slots of every delivery in it until that receiver answers.
    await forEachJob(sends, ({ job, delivery }) =>
      this.attempt(job, delivery).then(() => job.done()),
    );
  }

  private async attempt(job: Job<DeliverPayload>, delivery: PendingDelivery): Promise<void> {
    const body = JSON.stringify(delivery.body);
    const secrets = delivery.secrets.map((sealed) => this.opened(sealed));
    if (secrets.length === 0) {
      const outcome: SendOutcome = {
        ok: false,
        statusCode: null,
        durationMs: 0,
        error: 'the endpoint has no valid signing secret',
      };
      return this.recorder.add({ job, delivery, outcome, attemptedAt: new Date() });
    }
    const waitFrom = Date.now();
    const slot = await this.pacer.acquire(delivery.endpoint_id);
    if (slot.paused) {
      webhookPostponed.inc({ reason: slot.reason });
      return this.recorder.add({ job, postponedUntil: new Date(slot.until) });
    }
    // A long wait for the endpoint's turn: it may have been deleted, paused or pointed elsewhere
    // meanwhile. Put back, the delivery is read afresh and settled, skipped or sent there.
    if (Date.now() - waitFrom >= RECHECK_AFTER_WAIT_MS && (await this.changed(delivery))) {
      slot.release({ kind: 'neutral' });
      return this.recorder.add({ job, postponedUntil: new Date() });
    }
    const attemptedAt = new Date();
    let outcome: SendOutcome | undefined;
    try {
      outcome = await sendWebhook(delivery.url, body, signedHeaders(delivery.id, body, secrets), {
        timeoutMs: this.config.WEBHOOKS_TIMEOUT_MS,
        allowPrivate: this.config.WEBHOOKS_ALLOW_PRIVATE_URLS,
        resolver: this.resolver,
        maxBodyBytes: WEBHOOK_LIMITS.responseBodyBytes,
      });
    } finally {
      slot.release(outcome ? paceFeedbackOf(outcome) : { kind: 'neutral' });
    }
    // Recorded with every attempt that finishes while the previous recording transaction runs.
    return this.recorder.add({ job, delivery, outcome, attemptedAt });
  }

  /** Whether the delivery is no longer to be sent as read: gone, final, paused, or moved. */
  private async changed(delivery: PendingDelivery): Promise<boolean> {
    const [now] = await this.repository.pending([delivery.id]);
    return (
      !now ||
      now.status !== 'pending' ||
      now.endpoint_status === 'paused' ||
      now.url !== delivery.url
    );
  }

  /** A signing secret in the clear: decrypted once, not on every delivery of its endpoint. */
  private opened(sealed: string): string {
    let secret = this.openedSecrets.get(sealed);
    if (secret === undefined) {
      if (this.openedSecrets.size >= MAX_OPENED_SECRETS) this.openedSecrets.clear();
      secret = this.box.open(sealed);
      this.openedSecrets.set(sealed, secret);
    }
    return secret;
  }

  private async record(batch: Finished[]): Promise<void> {
    const changes = batch.every((entry) => 'outcome' in entry && entry.outcome.ok)
      ? await this.recordDelivered(batch as Array<Extract<Finished, { outcome: SendOutcome }>>)
      : await this.recordSettling(batch);
    for (const change of changes) {
      const line = `webhook endpoint ${change.id} of workspace ${change.workspace_id}: ${change.was} -> ${change.status}${change.status_reason ? ` (${change.status_reason})` : ''}`;
      if (change.status === 'active') this.logger.log(line);
      else this.logger.warn(line);
    }
  }

  /** Every attempt of the batch delivered: one statement in autocommit (the common case). */
  private async recordDelivered(
    batch: Array<Extract<Finished, { outcome: SendOutcome }>>,
  ): Promise<StatusChange[]> {
    const attempts = batch.map(({ delivery, outcome, attemptedAt }) =>
      this.attemptRecord(delivery, outcome, attemptedAt, 'delivered'),
    );
    const jobs = batch.map((entry) => entry.job);
    const { deletedJobIds, recovered } = await this.repository.recordDelivered(
      attempts,
      jobFences(jobs),
    );
    markCompleted(jobs, deletedJobIds);
    return recovered;
  }

  /** Failures, retries or postponements among the batch: one transaction of a few statements. */
  private async recordSettling(batch: Finished[]): Promise<StatusChange[]> {
    return inPgTransaction(this.pool, async (manager) => {
      const held = new Set(
        await holdJobs(
          manager,
          batch.map((entry) => entry.job),
        ),
      );
      const kept: Array<Extract<Finished, { delivery: PendingDelivery }>> = [];
      const retries: Array<{ job: Job<DeliverPayload>; at: Date }> = [];
      for (const entry of batch) {
        if (!held.has(entry.job)) continue;
        if ('postponedUntil' in entry) retries.push({ job: entry.job, at: entry.postponedUntil });
        else kept.push(entry);
      }
      const attempts: AttemptRecord[] = [];
      const done: Job<DeliverPayload>[] = [];
      const health = new Map<string, EndpointHealth>();
      for (const { job, delivery, outcome, attemptedAt } of kept) {
        const attempt = delivery.attempts + 1;
        const gone = outcome.statusCode === 410;
        const waitAsked =
          outcome.statusCode === 429 || outcome.statusCode === 503
            ? retryAfterMs(outcome.retryAfter)
            : undefined;
        const delay =
          outcome.ok || gone ? undefined : nextRetryDelayMs(this.schedule, attempt, waitAsked);
        const next = outcome.ok ? 'delivered' : delay === undefined ? 'given_up' : 'pending';
        attempts.push(this.attemptRecord(delivery, outcome, attemptedAt, next));
        if (delay === undefined) done.push(job);
        else retries.push({ job, at: new Date(Date.now() + delay) });
        const entry = health.get(delivery.endpoint_id) ?? {
          id: delivery.endpoint_id,
          failures: 0,
          succeeded: false,
          gone: false,
        };
        if (outcome.ok) {
          entry.succeeded = true;
          entry.failures = 0;
        } else entry.failures += 1;
        entry.gone ||= gone;
        health.set(delivery.endpoint_id, entry);
      }
      await this.repository.recordAttempts(manager, attempts);
      const statusChanges = await this.repository.updateHealth(
        manager,
        [...health.values()],
        this.config.WEBHOOKS_DEGRADE_AFTER_FAILURES,
        this.config.WEBHOOKS_PAUSE_AFTER_MINUTES,
      );
      for (const { job, at } of retries) await job.retryAt(manager, at);
      await completeJobs(manager, done);
      return statusChanges;
    });
  }

  /** An attempt's row, and its metrics. */
  private attemptRecord(
    delivery: PendingDelivery,
    outcome: SendOutcome,
    attemptedAt: Date,
    next: AttemptRecord['delivery_status'],
  ): AttemptRecord {
    webhookAttempts.inc({
      outcome: outcome.ok ? 'delivered' : next === 'given_up' ? 'given_up' : 'failed',
    });
    webhookAttemptDuration.observe(outcome.durationMs / 1000);
    const occurredAt = Date.parse((delivery.body as { timestamp?: string }).timestamp ?? '');
    if (outcome.ok && !Number.isNaN(occurredAt))
      webhookDeliveryLag.observe(Math.max(0, Date.now() - occurredAt) / 1000);
    return {
      id: newId('wha'),
      delivery_id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      workspace_id: delivery.workspace_id,
      event_id: delivery.event_id,
      event_type: delivery.event_type,
      status: outcome.ok ? 'delivered' : 'failed',
      url: delivery.url,
      response_status_code: outcome.statusCode,
      response_body: outcome.body ?? null,
      response_duration_ms: outcome.durationMs,
      error: outcome.error ?? null,
      attempted_at: attemptedAt.toISOString(),
      delivery_status: next,
    };
  }
}

/** What an attempt's outcome says about the receiver's capacity (see `EndpointPacer`). */
export function paceFeedbackOf(outcome: SendOutcome): PaceFeedback {
  if (outcome.ok) return { kind: 'answered', durationMs: outcome.durationMs };
  const status = outcome.statusCode;
  if (status === 429 || status === 503)
    return { kind: 'overloaded', pauseMs: retryAfterMs(outcome.retryAfter) };
  if (status === null)
    return outcome.failure === 'policy' ? { kind: 'neutral' } : { kind: 'overloaded' };
  return status >= 500 ? { kind: 'overloaded' } : { kind: 'neutral' };
}
