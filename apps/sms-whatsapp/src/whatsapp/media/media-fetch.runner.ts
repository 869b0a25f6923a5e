import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { GraphError, WHATSAPP_GRAPH } from '../graph/whatsapp-graph';
import type { WhatsAppGraph } from '../graph/whatsapp-graph';
import {
  matchesDeclaredSha256,
  MEDIA_FETCH_ATTEMPTS,
  mediaRetryInMs,
  sha256Hex,
} from './media-fetch';
import { MediaRepository } from './media.repository';
import type { MediaRow } from './media.repository';
import { MEDIA_FETCH_QUEUE } from './media-queues';

type FetchJob = Job<{ media_id: string }>;
type Outcome = { stored: Buffer; mimeType: string | null } | { failed: string; temporary: boolean };

/**
 * Fetches inbound media from Meta (`GET /{media_id}`, then its short-lived URL with the token),
 * checks the bytes against the SHA-256 Meta declared and stores them with their type and size.
 * Temporary failures are retried with back-off; the last one, or a final one, is recorded on the
 * media row (`failed`, with the reason), which the API then answers with `WhatsAppMediaUnavailable`.
 */
@Injectable()
export class MediaFetchRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MediaFetchRunner.name);
  private readonly pool: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly repository: MediaRepository,
    @Inject(WHATSAPP_GRAPH) private readonly graph: WhatsAppGraph,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<{ media_id: string }>({
      queue: MEDIA_FETCH_QUEUE,
      concurrency: 4,
      leaseMs: 120_000,
      // Jobs come from the webhook processor's transaction, which wakes no one: look often.
      pollMs: 2_000,
      handle: (job) => this.fetch(job),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async fetch(job: FetchJob): Promise<void> {
    const media = await this.repository.findForLink(job.payload.media_id);
    if (media?.status !== 'pending') {
      await job.complete(this.repository.runner);
      return;
    }
    const outcome = await this.download(media);
    await inPgTransaction(this.pool, async (tx) => {
      if ('stored' in outcome) {
        await job.complete(tx);
        await store(tx, media.id, outcome.stored, outcome.mimeType);
        return;
      }
      if (outcome.temporary && job.attempts < MEDIA_FETCH_ATTEMPTS) {
        this.logger.warn(`media ${media.id} not fetched yet (${outcome.failed}); retrying`);
        await job.retryAt(tx, new Date(Date.now() + mediaRetryInMs(job.attempts)));
        return;
      }
      await job.complete(tx);
      await tx.query(
        `UPDATE sms_whatsapp.whatsapp_media SET status = 'failed', error = $2, fetched_at = clock_timestamp()
         WHERE id = $1 AND status = 'pending'`,
        [media.id, outcome.failed],
      );
    });
  }

  private async download(media: MediaRow): Promise<Outcome> {
    try {
      const info = await this.graph.getMedia(media.meta_media_id);
      const bytes = await this.graph.downloadMedia(info.url);
      if (!matchesDeclaredSha256(bytes, [info.sha256, media.sha256]))
        // A download cut short or altered on the way: worth another attempt, then final.
        return { failed: 'the bytes do not match the SHA-256 WhatsApp declared', temporary: true };
      return { stored: bytes, mimeType: info.mime_type ?? media.mime_type };
    } catch (err) {
      if (err instanceof GraphError) {
        const code = err.metaCode === null ? '' : ` (Meta code ${err.metaCode})`;
        return { failed: `${err.message}${code}`, temporary: err.temporary };
      }
      return { failed: (err as Error).message, temporary: true };
    }
  }
}

async function store(tx: SqlRunner, id: string, bytes: Buffer, mimeType: string | null) {
  await tx.query(
    `UPDATE sms_whatsapp.whatsapp_media
     SET bytes = $2, sha256 = $3, size_bytes = $4, mime_type = coalesce($5, mime_type),
       status = 'stored', error = NULL, fetched_at = clock_timestamp()
     WHERE id = $1 AND status = 'pending'`,
    [id, bytes, sha256Hex(bytes), bytes.length, mimeType],
  );
}
