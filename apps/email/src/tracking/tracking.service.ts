import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RecordTrackingHitsReply, TrackingHit } from '@switchboard/contracts';
import { EngagementRecorder } from './engagement-recorder';
import type { EngagementHit } from './engagement-recorder';
import { isPrefetched } from './prefetch';
import { TrackingLinks } from './tracking-links';

/**
 * Records the opens and clicks the gateway answered (ADR 17): each token is checked again here
 * (the transport is not trusted to carry only what the gateway checked), the hits join the next
 * group commit, and the reply comes once they are committed.
 */
@Injectable()
export class TrackingService {
  constructor(
    private readonly links: TrackingLinks,
    private readonly recorder: EngagementRecorder,
  ) {}

  async record(hits: TrackingHit[]): Promise<RecordTrackingHitsReply> {
    const engagement: EngagementHit[] = [];
    for (const hit of hits) {
      const claim = this.links.tokens.verify(hit.token);
      const at = new Date(hit.at);
      if (!claim || claim.kind === 'unsubscribe' || Number.isNaN(at.getTime())) continue;
      const client = {
        // A gateway older than hit ids sends none: recorded, though a batch offered twice then
        // counts twice.
        id: typeof hit.id === 'string' && hit.id !== '' ? hit.id : randomUUID(),
        messageId: claim.messageId,
        recipientId: claim.recipientId,
        at,
        ipAddress: hit.ip_address,
        userAgent: hit.user_agent,
      };
      engagement.push(
        claim.kind === 'open'
          ? { kind: 'open', ...client, prefetched: isPrefetched(hit.user_agent) }
          : { kind: 'click', ...client, url: claim.url, linkName: claim.linkName },
      );
    }
    return { recorded: await this.recorder.record(engagement) };
  }
}
