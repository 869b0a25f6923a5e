import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { enqueueJobs, wakeQueue } from '@switchboard/background';
import { EmailBroadcastErrors } from '@switchboard/contracts';
import type {
  EmailBroadcast,
  ListEmailBroadcastsRequest,
  RequestContext,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId, pgPoolOf } from '@switchboard/persistence';
import type { Page, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { NO_COUNTERS, toBroadcastDto } from './broadcast.mapper';
import type { BroadcastRow } from './broadcast.mapper';
import { normaliseBroadcastRequest } from './broadcast-request.normaliser';
import type { BroadcastChanges } from './broadcast-request.normaliser';
import { BroadcastReadsRepository } from './broadcast-reads.repository';
import { BroadcastRequirements, SHARED_IP_POOL } from './broadcast-requirements';
import { BROADCAST_TEMPLATES } from './broadcast-templates';
import type { BroadcastTemplates } from './broadcast-templates';
import { BroadcastsRepository } from './broadcasts.repository';

/** The queue that prepares a broadcast (snapshot, one message per contact) and finishes it. */
export const BROADCAST_QUEUE = 'email.broadcast';

/** Broadcasts: drafts, their reads, and the rules of update and delete. */
@Injectable()
export class BroadcastsService {
  private readonly pool: Pool;

  constructor(
    @InjectDataSource('email') dataSource: DataSource,
    private readonly repository: BroadcastsRepository,
    private readonly reads: BroadcastReadsRepository,
    private readonly requirements: BroadcastRequirements,
    @Inject(BROADCAST_TEMPLATES) private readonly templates: BroadcastTemplates,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  /** A draft, or a send (now or at `scheduled_at`) when every requirement holds; else 422. */
  async create(context: RequestContext, body: unknown): Promise<EmailBroadcast> {
    const workspaceId = workspaceOf(context);
    const now = new Date();
    const result = normaliseBroadcastRequest(body, 'create', now);
    if (!result.ok) throw AppError.validation(result.details);
    const { changes, send, scheduledAt } = result.value;
    if (scheduledAt && !send)
      throw new AppError(EmailBroadcastErrors.BroadcastScheduleWithoutSend, {
        details: [{ param: 'scheduled_at', message: 'requires send: true' }],
      });
    checkIpPool(changes);
    const row = draftRow(workspaceId, changes, now);
    if (send) await this.requirements.check(context, row);
    if (send) await this.requirements.checkReach(context, row, this.repository.reads, scheduledAt);
    const status = send ? (scheduledAt ? 'scheduled' : 'accepted') : 'draft';
    const saved: BroadcastRow = { ...row, status, scheduled_at: scheduledAt ?? null };
    const answer = await this.writes.run(context, async (manager) => {
      await this.repository.insert(manager, saved);
      if (send) await this.enqueue(manager, saved.id, scheduledAt);
      return toBroadcastDto(saved, { kind: 'mutation' });
    });
    if (send && !scheduledAt) wakeQueue(this.pool, 'email', BROADCAST_QUEUE);
    return answer;
  }

  async get(context: RequestContext, broadcastId: string): Promise<EmailBroadcast> {
    const row = await this.found(workspaceOf(context), broadcastId);
    const counters = await this.reads.counters(row.workspace_id, [row.id]);
    const sizes = row.template_id
      ? await this.templates
          .sizes(row.workspace_id, row.template_id, row.template_version_id)
          .catch(() => undefined)
      : undefined;
    return toBroadcastDto(row, {
      kind: 'single',
      counters: counters.get(row.id) ?? NO_COUNTERS,
      sizes,
    });
  }

  async list(
    context: RequestContext,
    request: ListEmailBroadcastsRequest,
  ): Promise<Page<EmailBroadcast>> {
    const workspaceId = workspaceOf(context);
    const page = await this.repository.list(workspaceId, request, this.cursors);
    const counters = await this.reads.counters(
      workspaceId,
      page.data.filter((row) => row.started_at).map((row) => row.id),
    );
    return {
      ...page,
      data: page.data.map((row) =>
        toBroadcastDto(row, { kind: 'list', counters: counters.get(row.id) }),
      ),
    };
  }

  /** A draft or scheduled broadcast's fields; 409 once it is accepted, sending or final. */
  async update(
    context: RequestContext,
    broadcastId: string,
    body: unknown,
  ): Promise<EmailBroadcast> {
    const workspaceId = workspaceOf(context);
    const result = normaliseBroadcastRequest(body, 'update', new Date());
    if (!result.ok) throw AppError.validation(result.details);
    const { changes } = result.value;
    checkIpPool(changes);
    return this.writes.run(context, async (manager) => {
      const row = await this.found(workspaceId, broadcastId, manager, true);
      if (row.status !== 'draft' && row.status !== 'scheduled')
        throw new AppError(EmailBroadcastErrors.BroadcastNotEditable, {
          message: `The broadcast is ${row.status}; only a draft or scheduled broadcast can be updated.`,
        });
      await this.repository.apply(manager, row.id, changes);
      const updated = (await this.repository.find(workspaceId, row.id, manager)) as BroadcastRow;
      // A scheduled broadcast must still be able to send at its time.
      if (updated.status === 'scheduled') await this.requirements.check(context, updated, manager);
      return toBroadcastDto(updated, { kind: 'mutation' });
    });
  }

  /** Drafts only; anything sent or scheduled keeps its record (409). */
  remove(context: RequestContext, broadcastId: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const row = await this.found(workspaceId, broadcastId, manager, true);
      if (row.status !== 'draft')
        throw new AppError(EmailBroadcastErrors.BroadcastNotDeletable, {
          message: `The broadcast is ${row.status}; only a draft can be deleted.`,
        });
      await this.repository.delete(manager, row.id);
      return null;
    });
  }

  async found(
    workspaceId: string,
    broadcastId: string,
    runner?: SqlRunner,
    lock = false,
  ): Promise<BroadcastRow> {
    const row = await this.repository.find(workspaceId, broadcastId, runner, lock);
    if (!row) throw new AppError(EmailBroadcastErrors.BroadcastNotFound);
    return row;
  }

  enqueue(runner: SqlRunner, broadcastId: string, runAt?: Date): Promise<void> {
    return enqueueJobs(runner, 'email', [
      { queue: BROADCAST_QUEUE, payload: { broadcast_id: broadcastId }, runAt },
    ]);
  }

  wake(): void {
    wakeQueue(this.pool, 'email', BROADCAST_QUEUE);
  }
}

function checkIpPool(changes: BroadcastChanges): void {
  if (changes.ip_pool_id && changes.ip_pool_id !== SHARED_IP_POOL)
    throw new AppError(EmailBroadcastErrors.BroadcastIpPoolUnavailable, {
      details: [
        { param: 'ip_pool_id', message: `unknown pool; omit it or give ${SHARED_IP_POOL}` },
      ],
    });
}

function draftRow(workspaceId: string, changes: BroadcastChanges, now: Date): BroadcastRow {
  return {
    id: newId('eb', now.getTime()),
    workspace_id: workspaceId,
    from_email: changes.from?.email ?? null,
    from_name: changes.from?.name ?? null,
    audience_id: changes.audience_id ?? null,
    template_id: changes.template_id ?? null,
    template_version_id: null,
    category: changes.category ?? 'marketing',
    ip_pool_id: changes.ip_pool_id ?? null,
    reply_to: changes.reply_to ?? [],
    headers: changes.headers ?? {},
    tags: changes.tags ?? [],
    metadata: changes.metadata ?? null,
    track_opens: changes.track_opens ?? false,
    track_clicks: changes.track_clicks ?? false,
    status: 'draft',
    failure_reason: null,
    failure_detail: null,
    recipient_count: 0,
    snapshot_at: null,
    prepared_after: null,
    prepared_at: null,
    created_at: now,
    scheduled_at: null,
    started_at: null,
    sent_at: null,
    canceled_at: null,
  };
}
