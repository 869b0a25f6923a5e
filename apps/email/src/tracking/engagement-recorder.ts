import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CommitBatcher } from '@switchboard/background';
import { poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { recipientEvent } from '../messages';
import type { EmailEventRecord } from '../messages';
import { EngagementRepository } from './engagement.repository';
import type { HitSubject, LinkClickRow, RecipientEngagement } from './engagement.repository';

/** One open or click, as the tracking route saw it. */
export interface EngagementHit {
  kind: 'open' | 'click';
  messageId: string;
  recipientId: string;
  at: Date;
  ipAddress: string | null;
  userAgent: string | null;
  /** Opens: fetched by an inbox's proxy (is_prefetched). */
  prefetched?: boolean;
  /** Clicks: the destination and the link's name. */
  url?: string;
  linkName?: string | null;
}

/**
 * Hits waiting for their commit beyond which a hit's answer waits for it too: below, the answer
 * never waits for the database (ADR 16); above, a flood slows down to what the database writes
 * instead of growing memory.
 */
const MAX_UNWRITTEN = 5_000;
/** A batch that fails (a deadlock with a delivery recount, a failover) is tried again. */
const ATTEMPTS = 3;

/**
 * Records opens and clicks in group commits: every hit that arrives while a commit runs joins the
 * next one, which is one read (the hits' messages and recipients) and one statement (counters,
 * link clicks, events and outbox) whatever the number of hits. Each hit counts: the SDK counts
 * "open events" and "click events", so a recipient opening twice counts twice.
 */
@Injectable()
export class EngagementRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger('EmailEngagement');
  private readonly runner: SqlRunner;
  private readonly batcher = new CommitBatcher<EngagementHit>((hits) => this.commit(hits));
  private unwritten = 0;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    @InjectDataSource('email') dataSource: DataSource,
    private readonly repository: EngagementRepository,
  ) {
    this.runner = poolRunner(dataSource);
  }

  /** Queues the hit; resolves at once, or once it is written when too many wait. */
  record(hit: EngagementHit): Promise<void> | undefined {
    this.unwritten++;
    const written = this.batcher.add(hit).finally(() => this.unwritten--);
    const settled = written.catch((err: unknown) =>
      this.logger.warn({ err }, `an ${hit.kind} of ${hit.messageId} was not recorded`),
    );
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
    return this.unwritten > MAX_UNWRITTEN ? settled : undefined;
  }

  /** Hits already answered are written before the service stops. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private async commit(hits: EngagementHit[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write(hits);
      } catch (err) {
        if (attempt >= ATTEMPTS) throw err;
      }
    }
  }

  private async write(hits: EngagementHit[]): Promise<void> {
    const subjects = new Map(
      (await this.repository.subjects(this.runner, hits)).map((subject) => [
        `${subject.message_id} ${subject.recipient_id}`,
        subject,
      ]),
    );
    const byRecipient = new Map<string, RecipientEngagement>();
    const clicks: LinkClickRow[] = [];
    const events: EmailEventRecord[] = [];
    for (const hit of hits) {
      // A message deleted since its link was signed: the hit names nobody any more.
      const subject = subjects.get(`${hit.messageId} ${hit.recipientId}`);
      if (!subject) continue;
      const at = hit.at.toISOString();
      let counts = byRecipient.get(subject.recipient_id);
      if (!counts)
        byRecipient.set(
          subject.recipient_id,
          (counts = {
            id: subject.recipient_id,
            message_id: subject.message_id,
            opens: 0,
            human_opens: 0,
            clicks: 0,
            first_opened_at: null,
            first_clicked_at: null,
          }),
        );
      if (hit.kind === 'open') {
        counts.opens++;
        if (!hit.prefetched) counts.human_opens++;
        counts.first_opened_at ??= at;
      } else {
        counts.clicks++;
        counts.first_clicked_at ??= at;
        clicks.push({
          workspace_id: subject.workspace_id,
          message_id: subject.message_id,
          recipient_id: subject.recipient_id,
          broadcast_id: subject.broadcast_id,
          url: hit.url ?? '',
          link_name: hit.linkName ?? null,
          clicked_at: at,
        });
      }
      events.push(engagementEvent(hit, subject));
    }
    // A fixed order of row locks: two processes' batches never wait on each other in a circle.
    const recipients = [...byRecipient.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    await this.repository.record(this.runner, recipients, clicks, events);
  }
}

/** `email.opened` or `email.clicked` on the message's timeline and to webhooks. */
export function engagementEvent(hit: EngagementHit, subject: HitSubject): EmailEventRecord {
  const client = { ip_address: hit.ipAddress, user_agent: hit.userAgent };
  const event =
    hit.kind === 'open'
      ? recipientEvent('email.opened', eventSubject(subject), recipientOf(subject), hit.at, {
          is_prefetched: hit.prefetched ?? false,
          ...client,
        })
      : recipientEvent('email.clicked', eventSubject(subject), recipientOf(subject), hit.at, {
          url: hit.url ?? null,
          link_name: hit.linkName ?? null,
          ...client,
        });
  return { ...event, data: { ...event.data, broadcast_id: subject.broadcast_id } };
}

export function eventSubject(subject: HitSubject) {
  return {
    messageId: subject.message_id,
    workspaceId: subject.workspace_id,
    tags: subject.tags,
    metadata: subject.metadata,
  };
}

export function recipientOf(subject: HitSubject) {
  return { id: subject.recipient_id, email: subject.email, role: subject.role };
}
