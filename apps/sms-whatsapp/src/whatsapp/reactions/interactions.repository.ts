import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WhatsAppReactionEvent } from '@switchboard/contracts';
import { enqueueJobs, wakeQueue } from '@switchboard/background';
import { inPgTransaction, paginate, pgPoolOf, poolRunner } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { returnedRows } from '../inbound/returned-rows';
import { INTERACTIONS_QUEUE, PENDING_REACTION } from './interaction-queue';
import type { InteractionJob } from './interaction-queue';

/** A message as reactions and read receipts need it. */
export interface InteractionTarget {
  id: string;
  direction: 'inbound' | 'outbound';
  provider_message_id: string | null;
  business_phone: string | null;
  created_at: Date;
  /** Whether this workspace's reaction stands on it, or one is on its way. */
  has_own_reaction: boolean;
}

export interface ReactionEventRow {
  id: string;
  emoji: string | null;
  status: WhatsAppReactionEvent['status'];
  from_address: WhatsAppReactionEvent['from'];
  error: WhatsAppReactionEvent['error'] | null;
  occurred_at: Date;
}

/** Named queries of reactions and read receipts; every one scoped by workspace. */
@Injectable()
export class InteractionsRepository {
  private readonly reads: SqlRunner;
  private readonly pool: Pool;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
    this.pool = pgPoolOf(dataSource);
  }

  async target(workspaceId: string, messageId: string): Promise<InteractionTarget | undefined> {
    const rows = returnedRows<InteractionTarget>(
      await this.reads.query(
        `SELECT m.id, m.direction, m.provider_message_id, m.business_phone, m.created_at,
           -- The latest change of ours still in effect or on its way decides, else what stands.
           coalesce((
             SELECT e.emoji IS NOT NULL FROM sms_whatsapp.whatsapp_reaction_events e
             WHERE e.workspace_id = m.workspace_id AND e.message_id = m.id
               AND e.direction = 'outbound' AND e.status IN ('${PENDING_REACTION}', 'sent')
             ORDER BY e.occurred_at DESC, e.seq DESC LIMIT 1), m.reaction IS NOT NULL) AS has_own_reaction
         FROM sms_whatsapp.whatsapp_messages m WHERE m.workspace_id = $1 AND m.id = $2`,
        [workspaceId, messageId],
      ),
    );
    return rows[0];
  }

  /** Logs a reaction change as pending and queues its dispatch, in one transaction. */
  async acceptReaction(
    workspaceId: string,
    target: InteractionTarget,
    entry: { id: string; emoji: string | null },
  ): Promise<void> {
    await inPgTransaction(this.pool, async (tx) => {
      await tx.query(
        `INSERT INTO sms_whatsapp.whatsapp_reaction_events (id, workspace_id, message_id, emoji,
           status, direction, from_address, occurred_at)
         VALUES ($1, $2, $3, $4, '${PENDING_REACTION}', 'outbound', $5, clock_timestamp())`,
        [
          entry.id,
          workspaceId,
          target.id,
          entry.emoji,
          JSON.stringify(target.business_phone ? { phone_number: target.business_phone } : {}),
        ],
      );
      await this.enqueue(tx, { kind: 'reaction', message_id: target.id });
    });
    wakeQueue(this.pool, 'sms_whatsapp', INTERACTIONS_QUEUE);
  }

  async acceptReadReceipt(messageId: string, typingIndicator: boolean): Promise<void> {
    await this.enqueue(this.reads, {
      kind: 'read',
      message_id: messageId,
      typing_indicator: typingIndicator,
    });
    wakeQueue(this.pool, 'sms_whatsapp', INTERACTIONS_QUEUE);
  }

  /** The reaction log newest first, without the changes not yet handed to Meta. */
  listEvents(
    workspaceId: string,
    messageId: string,
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<ReactionEventRow>> {
    return paginate<ReactionEventRow>(
      this.reads,
      {
        from: 'sms_whatsapp.whatsapp_reaction_events',
        select: 'id, emoji, status, from_address, error, occurred_at',
        where: {
          sql: `workspace_id = $1 AND message_id = $2 AND status <> '${PENDING_REACTION}'`,
          params: [workspaceId, messageId],
        },
        filters: { workspaceId, messageId },
        sorts: { occurred_at: { column: 'occurred_at', type: 'timestamptz' } },
        defaultSort: 'occurred_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      {
        limit: request.limit,
        starting_after: request.starting_after,
        ending_before: request.ending_before,
      },
      cursors,
    );
  }

  private async enqueue(runner: SqlRunner, job: InteractionJob): Promise<void> {
    await enqueueJobs(runner, 'sms_whatsapp', [{ queue: INTERACTIONS_QUEUE, payload: job }]);
  }
}
