import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { JobLeaseLostError, wakeQueue, WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { ContactErrors } from '@switchboard/contracts';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { PROCESS_QUEUE } from '../messages';
import { SuppressionsService } from '../suppressions';
import {
  AUDIENCE_SNAPSHOTS,
  AudienceSnapshots,
  contactForTemplates,
  workerContext,
} from './audience-snapshots';
import type { PropertyRendering } from './audience-snapshots';
import type { BroadcastRow } from './broadcast.mapper';
import { BroadcastMessagesRepository } from './broadcast-messages.repository';
import { BROADCAST_TEMPLATES } from './broadcast-templates';
import type { BroadcastTemplates, PinnedBroadcastTemplate } from './broadcast-templates';
import { BroadcastsRepository } from './broadcasts.repository';
import { BROADCAST_QUEUE } from './broadcasts.service';
import { BroadcastStates, detailsOf } from './broadcast-states';
import { pageDrafts } from './page-drafts';

interface BroadcastJob {
  broadcast_id: string;
}

/** Runs of a broadcast's job an unexpected failure may take before the broadcast fails. */
export const GIVE_UP_AFTER = 12;

/**
 * Prepares broadcasts through the durable jobs queue (`email.broadcast`), so a send survives
 * restarts: when it is due the broadcast is checked again, its template's live version pinned and
 * its audience snapshotted a keyset page at a time; each page's messages (one per addressable,
 * unsuppressed contact, rendered) are written in one statement with the page's progress, so a
 * crash resumes from the last committed page and the (broadcast, contact) key keeps any
 * recipient from getting two messages. The existing pipeline processes and delivers them; this
 * job then waits for the last to be processed and marks the broadcast sent.
 */
@Injectable()
export class BroadcastPreparation implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BroadcastPreparation.name);
  private readonly pool: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    @InjectDataSource('email') dataSource: DataSource,
    private readonly repository: BroadcastsRepository,
    private readonly messages: BroadcastMessagesRepository,
    private readonly states: BroadcastStates,
    private readonly suppressions: SuppressionsService,
    @Inject(BROADCAST_TEMPLATES) private readonly templates: BroadcastTemplates,
    @Inject(AUDIENCE_SNAPSHOTS) private readonly audiences: AudienceSnapshots,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'email', this.logger).start<BroadcastJob>({
      queue: BROADCAST_QUEUE,
      concurrency: 2,
      leaseMs: this.config.EMAIL_JOB_LEASE_SECONDS * 1000,
      pollMs: 1000,
      handle: (job) => this.run(job),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  /**
   * Steps the broadcast until the job is settled (done, failed, or looked at again later). An
   * unexpected failure is retried with the queue's back-off (1 s doubling to an hour); one that
   * persists through `GIVE_UP_AFTER` runs (about an hour and ten minutes) fails the broadcast
   * `internal_error` instead of leaving it `accepted` or `sending` for ever.
   */
  async run(job: Job<BroadcastJob>): Promise<void> {
    try {
      await this.steps(job);
    } catch (err) {
      if (err instanceof JobLeaseLostError || job.attempts < GIVE_UP_AFTER) throw err;
      const detail = `an unexpected failure persisted through ${job.attempts} attempts: ${(err as Error).message}`;
      this.logger.error(`broadcast ${job.payload.broadcast_id}: ${detail}`);
      await this.states.fail(job, job.payload.broadcast_id, 'internal_error', detail);
    }
  }

  private async steps(job: Job<BroadcastJob>): Promise<void> {
    let pinned: PinnedBroadcastTemplate | undefined;
    let properties: PropertyRendering | undefined;
    for (;;) {
      const row = await this.repository.byId(job.payload.broadcast_id);
      if (row?.status === 'sending' && !row.prepared_at) {
        pinned ??= await this.pin(job, row);
        if (!pinned) return;
        properties ??= await this.audiences.properties(
          workerContext(row.workspace_id, `req_${row.id}`),
        );
        await this.preparePage(job, row, pinned, properties);
        continue;
      }
      if ((await this.states.step(job, row?.id ?? job.payload.broadcast_id)) === 'done') return;
    }
  }

  private async pin(
    job: Job<BroadcastJob>,
    row: BroadcastRow,
  ): Promise<PinnedBroadcastTemplate | undefined> {
    const pinned = await this.templates.pinned(
      row.workspace_id,
      row.template_id as string,
      row.template_version_id as string,
      await this.repository.templateSnapshot(row.workspace_id, row.id),
    );
    if (!pinned)
      await this.states.fail(job, row.id, 'content_invalid', 'the pinned template version is gone');
    return pinned;
  }

  /** One page of the snapshot: read and rendered outside, written with its progress at once. */
  private async preparePage(
    job: Job<BroadcastJob>,
    row: BroadcastRow,
    pinned: PinnedBroadcastTemplate,
    properties: PropertyRendering,
  ): Promise<void> {
    const context = workerContext(row.workspace_id, `req_${row.id}`);
    let page;
    try {
      page = await this.audiences.page(context, row.audience_id as string, {
        after: row.prepared_after ?? undefined,
        joinedBefore: row.snapshot_at ?? undefined,
        withFields: true,
      });
    } catch (err) {
      if ((err as { code?: string }).code !== ContactErrors.AudienceNotFound) throw err;
      return this.states.fail(job, row.id, 'audience_unavailable', 'the audience was deleted');
    }
    const members = page.data.filter((member) => member.email && member.contact);
    const stopped = await this.suppressions.suppressedAmong(
      this.repository.reads,
      row.workspace_id,
      members.map((member) => member.email as string),
      row.category,
      { preferences: this.config.PREFERENCES_ENFORCEMENT },
    );
    const prepared = pageDrafts(page, stopped, (contact) =>
      pinned.render(contactForTemplates(contact, properties)),
    );
    if (!prepared.ok) {
      const err = prepared.error;
      const detail = `the template could not be rendered for contact ${prepared.contactId}: ${(err as Error).message}${detailsOf(err)}`;
      return this.states.fail(job, row.id, 'content_invalid', detail);
    }
    const { drafts, after: last, complete } = prepared;
    const written = await inPgTransaction(this.pool, async (tx) => {
      await job.hold(tx);
      const current = await this.repository.lock(tx, row.id);
      // Canceled meanwhile, or another run took this page: read the broadcast again.
      if (current?.status !== 'sending' || current.prepared_after !== row.prepared_after) return 0;
      const over = await this.states.overAllowance(tx, current, drafts.length);
      if (over) {
        await this.states.failIn(tx, job, current.id, 'quota_exceeded', over);
        return 0;
      }
      const count = await this.messages.insertPage(tx, current, drafts);
      const total = await this.repository.advance(tx, current.id, {
        after: last,
        written: count,
        last: complete,
      });
      if (complete && total === 0)
        await this.states.failIn(
          tx,
          job,
          current.id,
          'empty_audience',
          emptyDetail(page.data.length),
        );
      return count;
    });
    if (written > 0) wakeQueue(this.pool, 'email', PROCESS_QUEUE);
  }
}

function emptyDetail(members: number): string {
  return members === 0
    ? 'the audience has no members'
    : 'no member of the audience has an email address that may receive this broadcast';
}
