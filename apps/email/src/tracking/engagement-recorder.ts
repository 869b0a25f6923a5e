import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CommitBatcher } from '@switchboard/background';
import { preparedRunner, pgPoolOf } from '@switchboard/persistence';
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

/** A batch that fails (a deadlock with a delivery recount, a failover) is tried again. */
const ATTEMPTS = 3;

/**
 * Records opens and clicks in group commits: every batch of hits that arrives while a commit
 * runs joins the next one, which is one read (the hits' messages and recipients) and one
 * statement (counters, link clicks, events and outbox) whatever the number of hits. Each hit
 * counts: the SDK counts "open events" and "click events", so a recipient opening twice counts
 * twice.
 */
@Injectable()
export class EngagementRecorder {
  private readonly runner: SqlRunner;
  private readonly batcher = new CommitBatcher<EngagementHit[]>(async (batches) => {
    const recorded = await this.commit(batches.flat());
    for (const batch of batches)
      this.recorded.set(batch, batch.filter((hit) => recorded.has(hit)).length);
  });
  /** Per batch, once committed: how many of its hits named a message that still exists. */
  private readonly recorded = new WeakMap<EngagementHit[], number>();

  constructor(
    @InjectDataSource('email') dataSource: DataSource,
    private readonly repository: EngagementRepository,
  ) {
    this.runner = preparedRunner(pgPoolOf(dataSource));
  }

  /** Resolves once the hits are committed, with how many named a message that still exists. */
  async record(hits: EngagementHit[]): Promise<number> {
    if (hits.length === 0) return 0;
    await this.batcher.add(hits);
    return this.recorded.get(hits) ?? 0;
  }

  private async commit(hits: EngagementHit[]): Promise<Set<EngagementHit>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write(hits);
      } catch (err) {
        if (attempt >= ATTEMPTS) throw err;
      }
    }
  }

  /** Writes the hits that name a message and recipient; answers those. */
  private async write(hits: EngagementHit[]): Promise<Set<EngagementHit>> {
    const pairs = new Map(hits.map((hit) => [`${hit.messageId} ${hit.recipientId}`, hit]));
    const subjects = new Map(
      (await this.repository.subjects(this.runner, [...pairs.values()])).map((subject) => [
        `${subject.message_id} ${subject.recipient_id}`,
        subject,
      ]),
    );
    const byRecipient = new Map<string, RecipientEngagement>();
    const clicks: LinkClickRow[] = [];
    const events: EmailEventRecord[] = [];
    const written = new Set<EngagementHit>();
    for (const hit of hits) {
      // A message deleted since its link was signed: the hit names nobody any more.
      const subject = subjects.get(`${hit.messageId} ${hit.recipientId}`);
      if (!subject) continue;
      written.add(hit);
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
    return written;
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
    broadcastId: subject.broadcast_id,
  };
}

export function recipientOf(subject: HitSubject) {
  return { id: subject.recipient_id, email: subject.email, role: subject.role };
}
