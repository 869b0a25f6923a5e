import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { WhatsAppMessageSubjects } from '@switchboard/contracts';
import type {
  ListWhatsAppEventsRequest,
  ListWhatsAppMessagesRequest,
  WhatsAppMessageIdRequest,
  WhatsAppSendInput,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { WhatsAppSendService } from './accept/send.service';
import { WhatsAppMessagesService } from './messages.service';

/** Transport handlers of WhatsApp messages; the services apply every rule. */
@Controller()
export class WhatsAppMessagesHandler {
  constructor(
    private readonly sends: WhatsAppSendService,
    private readonly messages: WhatsAppMessagesService,
  ) {}

  @Handles(WhatsAppMessageSubjects.SendMessage)
  send(@Payload() input: WhatsAppSendInput, @Ctx() context: BaseRpcContext) {
    return this.sends.send(requestContextOf(context), input);
  }

  @Handles(WhatsAppMessageSubjects.GetMessage)
  get(@Payload() input: WhatsAppMessageIdRequest, @Ctx() context: BaseRpcContext) {
    return this.messages.get(requestContextOf(context), input.message_id);
  }

  @Handles(WhatsAppMessageSubjects.ListMessages)
  list(@Payload() input: ListWhatsAppMessagesRequest, @Ctx() context: BaseRpcContext) {
    return this.messages.list(requestContextOf(context), input);
  }

  @Handles(WhatsAppMessageSubjects.ListEvents)
  events(@Payload() input: ListWhatsAppEventsRequest, @Ctx() context: BaseRpcContext) {
    return this.messages.events(requestContextOf(context), input.message_id, input.type);
  }
}
