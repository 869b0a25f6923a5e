import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { WhatsAppWebhookSubjects } from '@switchboard/contracts';
import type {
  WhatsAppWebhookChallengeRequest,
  WhatsAppWebhookReceiveRequest,
} from '@switchboard/contracts';
import { Handles } from '@switchboard/platform';
import { WebhookIntakeService } from './webhook-intake.service';

/** Transport handlers of Meta's webhook endpoint; the intake applies every rule. */
@Controller()
export class WhatsAppWebhooksHandler {
  constructor(private readonly intake: WebhookIntakeService) {}

  @Handles(WhatsAppWebhookSubjects.Challenge)
  challenge(@Payload() input: WhatsAppWebhookChallengeRequest) {
    return this.intake.challenge(input);
  }

  @Handles(WhatsAppWebhookSubjects.Receive)
  receive(@Payload() input: WhatsAppWebhookReceiveRequest) {
    return this.intake.receive(input);
  }
}
