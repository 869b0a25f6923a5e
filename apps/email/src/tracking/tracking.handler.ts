import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EmailTrackingSubjects } from '@switchboard/contracts';
import type {
  RecordTrackingHitsRequest,
  UnsubscribePageRequest,
  UnsubscribeRequest,
} from '@switchboard/contracts';
import { Handles } from '@switchboard/platform';
import { UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import { TrackingService } from './tracking.service';

/**
 * Transport handlers of the credential-free routes on PUBLIC_URL (opens and clicks in batches from
 * the gateway). No workspace comes with them: each signed token names a message, and the message
 * its workspace.
 */
@Controller()
export class TrackingHandler {
  constructor(
    private readonly tracking: TrackingService,
    private readonly unsubscribes: UnsubscribeService,
  ) {}

  @Handles(EmailTrackingSubjects.RecordHits)
  record(@Payload() input: RecordTrackingHitsRequest) {
    return this.tracking.record(input.hits);
  }

  @Handles(EmailTrackingSubjects.UnsubscribePage)
  page(@Payload() input: UnsubscribePageRequest) {
    return this.unsubscribes.page(input.token);
  }

  @Handles(EmailTrackingSubjects.Unsubscribe)
  unsubscribe(@Payload() input: UnsubscribeRequest) {
    return this.unsubscribes.unsubscribe(input);
  }
}
