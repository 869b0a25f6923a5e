import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EmailTrackingSubjects } from '@switchboard/contracts';
import type {
  TrackingHitRequest,
  UnsubscribePageRequest,
  UnsubscribeRequest,
} from '@switchboard/contracts';
import { Handles } from '@switchboard/platform';
import { UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import { TrackingService } from './tracking.service';

/**
 * Transport handlers of the credential-free routes on PUBLIC_URL. No workspace comes with them:
 * the signed token names the message, and the message its workspace.
 */
@Controller()
export class TrackingHandler {
  constructor(
    private readonly tracking: TrackingService,
    private readonly unsubscribes: UnsubscribeService,
  ) {}

  @Handles(EmailTrackingSubjects.Open)
  open(@Payload() input: TrackingHitRequest) {
    return this.tracking.open(input);
  }

  @Handles(EmailTrackingSubjects.Click)
  click(@Payload() input: TrackingHitRequest) {
    return this.tracking.click(input);
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
