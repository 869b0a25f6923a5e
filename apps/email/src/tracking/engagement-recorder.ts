import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CommitBatcher } from '@switchboard/background';
import { derivedId, preparedRunner, pgPoolOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { recipientEvent } from '../messages';
import type { EmailEventRecord } from '../messages';
import { EngagementRepository } from './engagement.repository';
import type { HitSubject, LinkClickRow } from './engagement.repository';

/** One open or click, as the tracking route saw it. */
export interface EngagementHit {
  /** The gateway's id of the hit, the same when its batch is offered again. */
  id: string;
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
 * twice; a hit whose batch the gateway offered again counts once.
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

  /**
   * Writes the hits that name a message and recipient; answers those. A hit's event id is derived
   * from its id, so a hit offered twice (in this batch, or again after its commit) is one event,
   * and the counters and link clicks move only with the events that were new.
   */
  private async write(hits: EngagementHit[]): Promise<Set<EngagementHit>> {
    const pairs = new Map(hits.map((hit) => [`${hit.messageId} ${hit.recipientId}`, hit]));
    const subjects = new Map(
      (await this.repository.subjects(this.runner, [...pairs.values()])).map((subject) => [
        `${subject.message_id} ${subject.recipient_id}`,
        subject,
      ]),
    );
    const events = new Map<string, EmailEventRecord>();
    const clicks: LinkClickRow[] = [];
    const written = new Set<EngagementHit>();
    for (const hit of hits) {
      // A message deleted since its link was signed: the hit names nobody any more.
      const subject = subjects.get(`${hit.messageId} ${hit.recipientId}`);
      if (!subject) continue;
      written.add(hit);
      const event = engagementEvent(hit, subject);
      if (events.has(event.id)) continue;
      events.set(event.id, event);
      if (hit.kind === 'click')
        clicks.push({
          event_id: event.id,
          workspace_id: subject.workspace_id,
          message_id: subject.message_id,
          recipient_id: subject.recipient_id,
          broadcast_id: subject.broadcast_id,
          url: hit.url ?? '',
          link_name: hit.linkName ?? null,
          clicked_at: hit.at.toISOString(),
        });
    }
    // In the order answered, which the timeline keeps. Two batches holding the same hits can
    // deadlock on their event ids (a batch offered again, in another process): one is tried again.
    await this.repository.record(this.runner, [...events.values()], clicks);
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
          // The SDK's link_name is absent, not null, when the link had no name.
          ...(hit.linkName ? { link_name: hit.linkName } : {}),
          ...client,
        });
  return {
    ...event,
    id: derivedId('ev', hit.at.getTime(), hit.id),
    data: { ...event.data, broadcast_id: subject.broadcast_id },
  };
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
