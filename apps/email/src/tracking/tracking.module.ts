import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages';
import { UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import { EngagementRecorder } from './engagement-recorder';
import { EngagementRepository } from './engagement.repository';
import { TrackingHandler } from './tracking.handler';
import { TrackingLinks } from './tracking-links';
import { TrackingService } from './tracking.service';

/**
 * Open and click tracking and unsubscribe links: the handlers of the gateway's `/t/o/`, `/t/c/`
 * and `/u/` routes and the group commits of their hits. The links themselves are put in mail by
 * delivery (`TrackingLinks`, provided there too).
 */
@Module({
  imports: [MessagesModule],
  controllers: [TrackingHandler],
  providers: [
    TrackingLinks,
    TrackingService,
    UnsubscribeService,
    EngagementRepository,
    EngagementRecorder,
  ],
})
export class TrackingModule {}
