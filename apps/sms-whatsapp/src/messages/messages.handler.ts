import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { SmsSubjects } from '@switchboard/contracts';
import type {
  ListSmsEventsRequest,
  ListSmsMessagesRequest,
  SmsMessageIdRequest,
  SmsSendInput,
  SystemSmsSendRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { SendService } from './accept/send.service';
import { MessagesService } from './messages.service';

/** Transport handlers of SMS messages; the services apply every rule. */
@Controller()
export class MessagesHandler {
  constructor(
    private readonly sends: SendService,
    private readonly messages: MessagesService,
  ) {}

  @Handles(SmsSubjects.SendMessage)
  send(@Payload() input: SmsSendInput, @Ctx() context: BaseRpcContext) {
    return this.sends.send(requestContextOf(context), input);
  }

  @Handles(SmsSubjects.SendBatch)
  sendBatch(@Payload() input: SmsSendInput, @Ctx() context: BaseRpcContext) {
    return this.sends.sendBatch(requestContextOf(context), input);
  }

  @Handles(SmsSubjects.SendSystemMessage)
  sendSystem(@Payload() input: SystemSmsSendRequest, @Ctx() context: BaseRpcContext) {
    return this.sends.sendSystem(requestContextOf(context), input);
  }

  @Handles(SmsSubjects.GetMessage)
  get(@Payload() input: SmsMessageIdRequest, @Ctx() context: BaseRpcContext) {
    return this.messages.get(requestContextOf(context), input.message_id);
  }

  @Handles(SmsSubjects.ListMessages)
  list(@Payload() input: ListSmsMessagesRequest, @Ctx() context: BaseRpcContext) {
    return this.messages.list(requestContextOf(context), input);
  }

  @Handles(SmsSubjects.ListEvents)
  events(@Payload() input: ListSmsEventsRequest, @Ctx() context: BaseRpcContext) {
    return this.messages.events(requestContextOf(context), input.message_id, input.type);
  }
}
