import { Injectable } from '@nestjs/common';
import { EmailTrackingErrors } from '@switchboard/contracts';
import type { TrackedClickReply, TrackingHitRequest } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { EngagementRecorder } from './engagement-recorder';
import { isPrefetched } from './prefetch';
import { TrackingLinks } from './tracking-links';

/**
 * Opens and clicks: the token is verified here (the email service alone holds its key) and the
 * hit queued for the next group commit; the answer does not wait for the write (ADR 16), so a
 * redirect costs an HMAC, not a transaction. A forged or altered token is 404 and records nothing.
 */
@Injectable()
export class TrackingService {
  constructor(
    private readonly links: TrackingLinks,
    private readonly recorder: EngagementRecorder,
  ) {}

  async open(request: TrackingHitRequest): Promise<null> {
    const claim = this.links.tokens.verify(request.token);
    if (claim?.kind !== 'open') throw new AppError(EmailTrackingErrors.TrackingLinkNotFound);
    await this.recorder.record({
      kind: 'open',
      messageId: claim.messageId,
      recipientId: claim.recipientId,
      at: new Date(),
      ipAddress: request.ip_address,
      userAgent: request.user_agent,
      prefetched: isPrefetched(request.user_agent),
    });
    return null;
  }

  async click(request: TrackingHitRequest): Promise<TrackedClickReply> {
    const claim = this.links.tokens.verify(request.token);
    if (claim?.kind !== 'click') throw new AppError(EmailTrackingErrors.TrackingLinkNotFound);
    await this.recorder.record({
      kind: 'click',
      messageId: claim.messageId,
      recipientId: claim.recipientId,
      at: new Date(),
      ipAddress: request.ip_address,
      userAgent: request.user_agent,
      url: claim.url,
      linkName: claim.linkName,
    });
    return { url: claim.url };
  }
}
