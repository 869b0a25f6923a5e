import { Inject, Injectable } from '@nestjs/common';
import { EmailBroadcastErrors } from '@switchboard/contracts';
import type { Job } from '@switchboard/background';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import type { Pool } from 'pg';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { workerContext } from './audience-snapshots';
import type { BroadcastFailureReason, BroadcastRow } from './broadcast.mapper';
import { BroadcastMessagesRepository } from './broadcast-messages.repository';
import { BroadcastRequirements } from './broadcast-requirements';
import { BROADCAST_TEMPLATES } from './broadcast-templates';
import type { BroadcastTemplates } from './broadcast-templates';
import { BroadcastsRepository } from './broadcasts.repository';
import { quotaDetail } from './send-allowance';
import { lockAllowance, sentInWindows } from './send-allowance.repository';

/** How long a sending broadcast waits before looking again whether its last message was processed. */
const FINISH_POLL_MS = 1000;
/** More than any clock skew between the service and its database: farther off is another schedule. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The preparation job's transitions other than writing pages, each in one transaction that
 * also settles or keeps the job (fenced: a job another worker took over is left to it):
 * scheduled or accepted -> sending (checked again, template pinned, snapshot time taken),
 * sending -> sent once every message is processed, canceling -> canceled, and failures.
 */
@Injectable()
export class BroadcastStates {
  private readonly pool: Pool;

  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    @InjectDataSource('email') dataSource: DataSource,
    private readonly repository: BroadcastsRepository,
    private readonly messages: BroadcastMessagesRepository,
    private readonly requirements: BroadcastRequirements,
    @Inject(BROADCAST_TEMPLATES) private readonly templates: BroadcastTemplates,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  /** One transition; 'again' when the caller should read the broadcast and step on. */
  step(job: Job<{ broadcast_id: string }>, broadcastId: string): Promise<'again' | 'done'> {
    return inPgTransaction(this.pool, async (tx) => {
      await job.hold(tx);
      const row = await this.repository.lock(tx, broadcastId);
      const now = new Date();
      switch (row?.status) {
        case 'scheduled':
          // Not yet due by this clock. Far from due: a job of an earlier schedule (the broadcast
          // was sent again for another time, which has its own job). Nearly due: the database's
          // clock, which claimed the job, runs ahead of ours; the job waits for the broadcast's
          // time rather than ending, so the broadcast can never stay scheduled.
          if (row.scheduled_at && row.scheduled_at.getTime() > now.getTime() + 1000) {
            if (row.scheduled_at.getTime() > now.getTime() + CLOCK_SKEW_MS) break;
            await job.retryAt(tx, row.scheduled_at);
            return 'done';
          }
          return this.start(tx, job, row, now);
        case 'accepted':
          return this.start(tx, job, row, now);
        case 'sending':
          if (!row.prepared_at) return 'again';
          if (await this.messages.unprocessed(tx, row.workspace_id, row.id)) {
            await job.retryAt(tx, new Date(now.getTime() + FINISH_POLL_MS));
            return 'done';
          }
          await this.repository.setState(tx, row.id, { status: 'sent', sent_at: now });
          break;
        case 'canceling':
          await this.repository.setState(tx, row.id, { status: 'canceled' });
          break;
        // Nothing left to do: drafted again never happens, final states stay, a gone row is gone.
        case 'draft':
        case 'sent':
        case 'canceled':
        case 'failed':
        case undefined:
          break;
      }
      await job.complete(tx);
      return 'done';
    });
  }

  /** Due: the requirements again (a domain or template may have changed), then sending. */
  private async start(
    tx: SqlRunner,
    job: Job,
    row: BroadcastRow,
    now: Date,
  ): Promise<'again' | 'done'> {
    const context = workerContext(row.workspace_id, `req_${row.id}`);
    try {
      await this.requirements.check(context, row, tx);
    } catch (err) {
      const reason = failureOf(err);
      if (!reason) throw err;
      await this.failIn(tx, job, row.id, reason, (err as AppError).message + detailsOf(err));
      return 'done';
    }
    // As for a send now: the allowance must cover at least a batch (a part-covered broadcast goes
    // out until it runs out, page by page).
    const { sendable } = await this.requirements.audienceCounts(context, row, tx);
    const quota = await this.requirements.quota(row.workspace_id, sendable, tx);
    if (sendable > 0 && quota.allowed === 0) {
      await this.failIn(tx, job, row.id, 'quota_exceeded', quotaDetail(sendable, quota));
      return 'done';
    }
    const versionId = await this.templates.liveVersion(
      row.workspace_id,
      row.template_id as string,
      tx,
    );
    // Kept with the broadcast: a template deleted while its messages are prepared leaves them be.
    const templateSnapshot = versionId
      ? await this.templates.snapshot(row.workspace_id, row.template_id as string, versionId, tx)
      : undefined;
    await this.repository.setState(tx, row.id, {
      status: 'sending',
      started_at: now,
      snapshot_at: now,
      template_version_id: versionId,
      template_snapshot: templateSnapshot ?? null,
    });
    return 'again';
  }

  /** Fails the broadcast in a transaction of its own, settling the job. */
  fail(job: Job, id: string, reason: BroadcastFailureReason, detail: string): Promise<void> {
    return inPgTransaction(this.pool, async (tx) => {
      await job.hold(tx);
      await this.failIn(tx, job, id, reason, detail);
    });
  }

  async failIn(
    tx: SqlRunner,
    job: Job,
    id: string,
    reason: BroadcastFailureReason,
    detail: string,
  ): Promise<void> {
    await this.repository.setState(tx, id, {
      status: 'failed',
      failure_reason: reason,
      failure_detail: detail,
    });
    await job.complete(tx);
  }

  /**
   * Why `adding` more messages would pass the workspace's daily or monthly allowance (the
   * settings `EMAIL_DAILY_LIMIT`, `EMAIL_MONTHLY_LIMIT`), or undefined when they fit.
   */
  async overAllowance(tx: SqlRunner, row: BroadcastRow, adding: number) {
    const limits = {
      daily: this.config.EMAIL_DAILY_LIMIT,
      monthly: this.config.EMAIL_MONTHLY_LIMIT,
    };
    if (!limits.daily && !limits.monthly) return undefined;
    // Counted after the pages committed before this one, until this one commits.
    await lockAllowance(tx, row.workspace_id);
    const used = await sentInWindows(tx, row.workspace_id);
    for (const window of ['daily', 'monthly'] as const) {
      const limit = limits[window];
      if (limit && used[window] + Math.max(adding, 1) > limit)
        return `${used[window]} emails sent this ${window === 'daily' ? 'day' : 'month'} and ${adding} more to send would pass the ${window} allowance of ${limit}`;
    }
    return undefined;
  }
}

/** The broadcast's failure reason for a requirement that no longer holds. */
export function failureOf(err: unknown): BroadcastFailureReason | undefined {
  if (!(err instanceof AppError)) return undefined;
  if (err.code === EmailBroadcastErrors.BroadcastAudienceUnknown) return 'audience_unavailable';
  const content: string[] = [
    EmailBroadcastErrors.BroadcastIncomplete,
    EmailBroadcastErrors.BroadcastSenderNotVerified,
    EmailBroadcastErrors.BroadcastTemplateNotPublished,
  ];
  return content.includes(err.code) ? 'content_invalid' : undefined;
}

/** An AppError's details, as ` (param: message; ...)`, for a failure's detail. */
export function detailsOf(err: unknown): string {
  const details = (err as AppError).details ?? [];
  return details.length ? ` (${details.map((d) => `${d.param}: ${d.message}`).join('; ')})` : '';
}
