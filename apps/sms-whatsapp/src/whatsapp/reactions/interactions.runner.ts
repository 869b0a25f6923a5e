import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, newId, pgPoolOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { Pool } from 'pg';
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

/**
 * Carries reactions and read receipts to Meta. A message's pending reaction changes are sent in
 * the order they were accepted under a lock on the message, so the one Meta ends with is the
 * last one asked for; each log entry becomes `sent` (with its wamid, for status webhooks) or
 * `failed`, and what stands is folded into the message's `reaction`. A read receipt sets the
 * message's `read_at` and its `whatsapp.read` event once Meta took it.
 */
@Injectable()
export class InteractionsRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(InteractionsRunner.name);
  private readonly pool: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    @Inject(WHATSAPP_GRAPH) private readonly graph: WhatsAppGraph,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<InteractionJob>({
      queue: INTERACTIONS_QUEUE,
      concurrency: 8,
      leaseMs: 60_000,
      handle: (job) =>
        job.payload.kind === 'read' ? this.sendReadReceipt(job) : this.sendReactions(job),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async sendReactions(job: Job<InteractionJob>): Promise<void> {
    await inPgTransaction(this.pool, async (tx) => {
      await job.hold(tx);
      const message = await addressed(tx, job.payload.message_id, true);
      const pending = returnedRows<{ id: string; emoji: string | null }>(
        await tx.query(
          `SELECT id, emoji FROM sms_whatsapp.whatsapp_reaction_events
           WHERE message_id = $1 AND direction = 'outbound' AND status = '${PENDING_REACTION}'
           ORDER BY seq`,
          [job.payload.message_id],
        ),
      );
      for (const entry of pending) {
        const at = new Date();
        if (!message?.provider_message_id || !message.to) {
          await settle(tx, entry.id, 'rejected', null, {
            code: 'undeliverable',
            description:
              'The message can no longer be resolved at WhatsApp (provider ids are kept 15 days).',
            meta_error_code: null,
            occurred_at: at.toISOString(),
          });
          continue;
        }
        try {
          const sent = await this.graph.sendMessage(message.phone_number_id, {
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            ...(message.to ? graphAddress(message.to) : {}),
            type: 'reaction',
            // Meta takes a reaction back as a reaction with an empty emoji.
            reaction: { message_id: message.provider_message_id, emoji: entry.emoji ?? '' },
          });
          await settle(tx, entry.id, 'sent', sent.messageId || null, null);
        } catch (err) {
          if (err instanceof GraphError && err.temporary && job.attempts < DISPATCH_ATTEMPTS) {
            // This change and the ones after it wait, in order, for the next attempt.
            this.logger.warn(`reaction ${entry.id} not sent yet (${err.message}); retrying`);
            await foldOwnReactions(tx, { messageIds: [job.payload.message_id] });
            await job.retryAt(tx, new Date(Date.now() + dispatchRetryInMs(job.attempts)));
            return;
          }
          await settle(tx, entry.id, 'failed', null, reactionError(err, at));
        }
      }
      await foldOwnReactions(tx, { messageIds: [job.payload.message_id] });
      await job.complete(tx);
    });
  }

  private async sendReadReceipt(job: Job<InteractionJob>): Promise<void> {
    if (job.payload.kind !== 'read') return;
    const { message_id: messageId, typing_indicator: typing } = job.payload;
    const message = await addressed(this.pool, messageId, false);
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

/** The message with where Meta reaches it; `lock` holds it for the transaction. */
async function addressed(
  runner: SqlRunner,
  messageId: string,
  lock: boolean,
): Promise<Addressed | undefined> {
  const rows = returnedRows<Addressed>(
    await runner.query(
      `SELECT n.phone_number_id, m.provider_message_id,
         coalesce(m.contact_phone, m.contact_bsuid) AS to
       FROM sms_whatsapp.whatsapp_messages m
       JOIN sms_whatsapp.whatsapp_numbers n ON n.id = m.number_id
       WHERE m.id = $1 ${lock ? 'FOR UPDATE OF m' : ''}`,
      [messageId],
    ),
  );
  return rows[0];
}

async function settle(
  tx: SqlRunner,
  id: string,
  status: 'sent' | 'failed' | 'rejected',
  wamid: string | null,
  error: unknown,
): Promise<void> {
  await tx.query(
    `UPDATE sms_whatsapp.whatsapp_reaction_events
     SET status = $2, provider_message_id = $3, error = $4::jsonb WHERE id = $1`,
    [id, status, wamid, error === null ? null : JSON.stringify(error)],
  );
}
