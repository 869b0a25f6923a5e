import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, newId, pgPoolOf, rowsOf } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { GraphError, WHATSAPP_GRAPH } from '../graph/whatsapp-graph';
import type { WhatsAppGraph } from '../graph/whatsapp-graph';
import { planSync } from './template-sync.plan';
import { TEMPLATE_SYNC_QUEUE, TemplateSyncRepository } from './template-sync.repository';

type SyncJob = Job<{ business_account_id: string }>;

/** How long a sync that found another of the same account running waits before trying again. */
const BUSY_RETRY_MS = 2_000;

/**
 * Runs template syncs from the work queue: one account's templates read from Meta (every page)
 * and written as one transaction. The transaction holds the account's advisory lock from before
 * the read to the commit, so two syncs of one account never overlap: the second waits its turn
 * and then reads what Meta holds by then.
 */
@Injectable()
export class TemplateSyncRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(TemplateSyncRunner.name);
  private readonly pool: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly repository: TemplateSyncRepository,
    @Inject(WHATSAPP_GRAPH) private readonly graph: WhatsAppGraph,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<{ business_account_id: string }>({
      queue: TEMPLATE_SYNC_QUEUE,
      concurrency: 2,
      leaseMs: 120_000,
      backoffBaseMs: 5_000,
      backoffCapMs: 15 * 60_000,
      handle: (job) => this.sync(job),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private sync(job: SyncJob): Promise<void> {
    const accountId = job.payload.business_account_id;
    return inPgTransaction(this.pool, async (tx) => {
      const [lock] = rowsOf<{ held: boolean }>(
        await tx.query('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS held', [
          `whatsapp_template_sync:${accountId}`,
        ]),
      );
      if (!lock.held) return job.retryAt(tx, new Date(Date.now() + BUSY_RETRY_MS));
      const account = await this.repository.account(tx, accountId);
      if (!account) return job.complete(tx);
      let templates;
      try {
        templates = await this.graph.listTemplates(account.waba);
      } catch (err) {
        // A temporary failure is retried with back-off; a final one (a revoked token, an
        // account the app lost access to) waits for the next periodic or requested sync.
        if (!(err instanceof GraphError) || err.temporary) throw err;
        this.logger.warn(`template sync of ${account.waba} refused by Meta: ${err.message}`);
        return job.complete(tx);
      }
      const now = new Date();
      const held = await this.repository.state(tx, account.id);
      const plan = planSync(held, templates, now, {
        template: () => newId('wat'),
        version: () => newId('wav'),
      });
      await this.repository.write(tx, account, plan, now);
      await job.complete(tx);
    });
  }
}
