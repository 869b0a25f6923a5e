import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, newId, pgPoolOf, pgRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { Pool } from 'pg';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { graphAddress } from '../content/to-graph';
import { GraphError, WHATSAPP_GRAPH } from '../graph/whatsapp-graph';
import type { WhatsAppGraph } from '../graph/whatsapp-graph';
import { returnedRows } from '../inbound/returned-rows';
import { DISPATCH_ATTEMPTS, dispatchRetryInMs, reactionError } from './interactions-dispatch';
import { INTERACTIONS_QUEUE, PENDING_REACTION } from './interaction-queue';
import { foldOwnReactions } from './own-reaction-fold';
import type { InteractionJob } from './interaction-queue';

interface Addressed {
  phone_number_id: string;
  provider_message_id: string | null;
  to: string | null;
}

type Outcome =
  | { status: 'sent'; wamid: string | null; error: null }
  | { status: 'failed' | 'rejected'; wamid: null; error: unknown };

/** Jobs run at once; also the most sessions the reaction locks take. */
const CONCURRENCY = 8;
/** First key of the per-message reaction locks ('WRE1'): two-key locks never meet one-key ones. */
const REACTION_LOCK_SPACE = 0x57524531;

/**
 * Carries reactions and read receipts to Meta. A message's pending reaction changes go to Meta
 * one at a time in the order they were accepted, so the one Meta ends with is the last one
 * asked for; each log entry becomes `sent` (with its wamid, for status webhooks) or `failed`
 * right after its own Graph call, and what stands is folded into the message's `reaction`. A
 * read receipt sets the message's `read_at` and its `whatsapp.read` event once Meta took it.
 *
 * No transaction and no row lock is open while Graph answers (up to ~14 s a call): the order
 * is kept by a session advisory lock keyed by the message, held on a connection of the runner's
 * own small pool across the calls (a row lock would need a transaction held just as long, and
 * webhooks touching the message would wait behind it; one job per message would need a
 * per-key queue the work queue does not have). The pending entries are read once the lock is
 * held, and each one is recorded before the next is sent, so a second job of the same message
 * waits, then finds them settled: nothing is sent twice. A crash between a Graph call and its
 * record leaves that one change pending, and it alone is sent again when the job is retried.
 */
@Injectable()
export class InteractionsRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(InteractionsRunner.name);
  private readonly pool: Pool;
  /** Sessions holding reaction locks, apart from the service's pool, which they would drain. */
  private readonly lockSessions: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    @Inject(WHATSAPP_GRAPH) private readonly graph: WhatsAppGraph,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.lockSessions = new Pool({ ...this.pool.options, max: CONCURRENCY });
    // An idle session that breaks is dropped by the pool; nothing it held is lost.
    this.lockSessions.on('error', () => undefined);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<InteractionJob>({
      queue: INTERACTIONS_QUEUE,
      concurrency: CONCURRENCY,
      leaseMs: 60_000,
      handle: (job) =>
        job.payload.kind === 'read' ? this.sendReadReceipt(job) : this.sendReactions(job),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
    await this.lockSessions.end();
  }

  /** Under the message's lock; a session that breaks ends the job (the lock went with it). */
  private async sendReactions(job: Job<InteractionJob>): Promise<void> {
    const key = [REACTION_LOCK_SPACE, job.payload.message_id];
    const session = await this.lockSessions.connect();
    let broken: Error | undefined;
    const onError = (err: Error) => (broken = err);
    session.on('error', onError);
    try {
      await session.query('SELECT pg_advisory_lock($1, hashtext($2))', key);
      await this.sendPendingReactions(job, session, () => broken);
      await session.query('SELECT pg_advisory_unlock($1, hashtext($2))', key);
    } catch (err) {
      broken ??= err as Error;
      throw err;
    } finally {
      session.off('error', onError);
      // A session that failed is closed rather than reused: its lock, if any, ends with it.
      session.release(broken);
    }
  }

  private async sendPendingReactions(
    job: Job<InteractionJob>,
    session: PoolClient,
    broken: () => Error | undefined,
  ): Promise<void> {
    const messageId = job.payload.message_id;
    await job.hold(session);
    const message = await addressed(session, messageId);
    const pending = returnedRows<{ id: string; emoji: string | null }>(
      await session.query(
        `SELECT id, emoji FROM sms_whatsapp.whatsapp_reaction_events
         WHERE message_id = $1 AND direction = 'outbound' AND status = '${PENDING_REACTION}'
         ORDER BY seq`,
        [messageId],
      ),
    );
    for (const entry of pending) {
      const at = new Date();
      if (!message?.provider_message_id || !message.to) {
        await this.record(session, messageId, entry.id, {
          status: 'rejected',
          wamid: null,
          error: {
            code: 'undeliverable',
            description:
              'The message can no longer be resolved at WhatsApp (provider ids are kept 15 days).',
            meta_error_code: null,
            occurred_at: at.toISOString(),
          },
        });
        continue;
      }
      // Without the lock another job could overtake this one: stop before sending.
      const lost = broken();
      if (lost) throw lost;
      let outcome: Outcome;
      try {
        const sent = await this.graph.sendMessage(message.phone_number_id, {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          ...graphAddress(message.to),
          type: 'reaction',
          // Meta takes a reaction back as a reaction with an empty emoji.
          reaction: { message_id: message.provider_message_id, emoji: entry.emoji ?? '' },
        });
        outcome = { status: 'sent', wamid: sent.messageId || null, error: null };
      } catch (err) {
        if (err instanceof GraphError && err.temporary && job.attempts < DISPATCH_ATTEMPTS) {
          // This change and the ones after it wait, in order, for the next attempt.
          this.logger.warn(`reaction ${entry.id} not sent yet (${err.message}); retrying`);
          await job.retryAt(session, new Date(Date.now() + dispatchRetryInMs(job.attempts)));
          return;
        }
        outcome = { status: 'failed', wamid: null, error: reactionError(err, at) };
      }
      await this.record(session, messageId, entry.id, outcome);
    }
    await job.complete(session);
  }

  /**
   * One entry's outcome and what then stands on its message, in a transaction of its own: the
   * wamid is there for a status webhook as soon as Meta answered, and nothing waits on the next
   * Graph call.
   */
  private async record(
    session: PoolClient,
    messageId: string,
    entryId: string,
    outcome: Outcome,
  ): Promise<void> {
    await inSessionTransaction(session, async (tx) => {
      await tx.query(
        `UPDATE sms_whatsapp.whatsapp_reaction_events
         SET status = $2, provider_message_id = $3, error = $4::jsonb
         WHERE id = $1 AND status = '${PENDING_REACTION}'`,
        [
          entryId,
          outcome.status,
          outcome.wamid,
          outcome.error === null ? null : JSON.stringify(outcome.error),
        ],
      );
      await foldOwnReactions(tx, { messageIds: [messageId] });
    });
  }

  private async sendReadReceipt(job: Job<InteractionJob>): Promise<void> {
    if (job.payload.kind !== 'read') return;
    const { message_id: messageId, typing_indicator: typing } = job.payload;
    const message = await addressed(this.pool, messageId);
    if (!message?.provider_message_id) return;
    try {
      await this.graph.sendMessage(message.phone_number_id, {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: message.provider_message_id,
        ...(typing ? { typing_indicator: { type: 'text' as const } } : {}),
      });
    } catch (err) {
      if (err instanceof GraphError && err.temporary && job.attempts < DISPATCH_ATTEMPTS) throw err;
      // Meta reports nothing about read receipts, and a late one shows nothing new: dropped.
      this.logger.warn(`read receipt of ${messageId} not sent: ${(err as Error).message}`);
      return;
    }
    await inPgTransaction(this.pool, async (tx) => {
      await job.complete(tx);
      await tx.query(
        `WITH marked AS (
           UPDATE sms_whatsapp.whatsapp_messages SET read_at = coalesce(read_at, clock_timestamp())
           WHERE id = $1 RETURNING id, workspace_id, read_at)
         INSERT INTO sms_whatsapp.whatsapp_message_events (id, message_id, workspace_id, type, occurred_at)
         SELECT $2, id, workspace_id, 'whatsapp.read', read_at FROM marked
         ON CONFLICT (message_id, type) DO NOTHING`,
        [messageId, newId('wev')],
      );
    });
  }
}

/** The message with where Meta reaches it. */
async function addressed(runner: SqlRunner, messageId: string): Promise<Addressed | undefined> {
  const rows = returnedRows<Addressed>(
    await runner.query(
      `SELECT n.phone_number_id, m.provider_message_id,
         coalesce(m.contact_phone, m.contact_bsuid) AS to
       FROM sms_whatsapp.whatsapp_messages m
       JOIN sms_whatsapp.whatsapp_numbers n ON n.id = m.number_id
       WHERE m.id = $1`,
      [messageId],
    ),
  );
  return rows[0];
}

/** `work` in a transaction on the lock's session (a short one: no Graph call inside). */
async function inSessionTransaction(
  session: PoolClient,
  work: (tx: SqlRunner) => Promise<void>,
): Promise<void> {
  await session.query('BEGIN');
  try {
    await work(pgRunner(session));
    await session.query('COMMIT');
  } catch (err) {
    await session.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
