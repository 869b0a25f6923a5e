import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { EmailSubjects } from '@switchboard/contracts';
import type { EmailSendInput, ListEmailMessagesRequest } from '@switchboard/contracts';
import type { PageRequest } from '@switchboard/persistence';
import { Handles, requestContextOf } from '@switchboard/platform';
import { SendService } from './accept/send.service';
import { MessagesService } from './messages.service';

type MessageScoped<T = object> = T & { message_id: string };

/** Transport handlers of email messages; the services apply every rule of a send. */
@Controller()
export class MessagesHandler {
  constructor(
    private readonly sends: SendService,
    private readonly messages: MessagesService,
  ) {}

  @Handles(EmailSubjects.SendMessage)
  send(@Payload() input: EmailSendInput, @Ctx() context: BaseRpcContext) {
    return this.sends.send(requestContextOf(context), input);
  }

  @Handles(EmailSubjects.SendBatch)
  sendBatch(@Payload() input: EmailSendInput, @Ctx() context: BaseRpcContext) {
    return this.sends.sendBatch(requestContextOf(context), input);
  }

  @Handles(EmailSubjects.GetMessage)
  get(@Payload() input: MessageScoped, @Ctx() context: BaseRpcContext) {
    return this.messages.get(requestContextOf(context), input.message_id);
  }

  @Handles(EmailSubjects.ListMessages)
  list(@Payload() input: ListEmailMessagesRequest, @Ctx() context: BaseRpcContext) {
    return this.messages.list(requestContextOf(context), input);
  }

  @Handles(EmailSubjects.CancelMessage)
  cancel(@Payload() input: MessageScoped, @Ctx() context: BaseRpcContext) {
    return this.messages.cancel(requestContextOf(context), input.message_id);
  }

  @Handles(EmailSubjects.ListRecipients)
  recipients(@Payload() input: MessageScoped<PageRequest>, @Ctx() context: BaseRpcContext) {
    return this.messages.recipients(requestContextOf(context), input.message_id, page(input));
  }

  @Handles(EmailSubjects.GetContent)
  content(@Payload() input: MessageScoped, @Ctx() context: BaseRpcContext) {
    return this.messages.content(requestContextOf(context), input.message_id);
  }

  @Handles(EmailSubjects.ListEvents)
  events(
    @Payload() input: MessageScoped<PageRequest & { type?: string }>,
    @Ctx() context: BaseRpcContext,
  ) {
    return this.messages.events(
      requestContextOf(context),
      input.message_id,
      input.type,
      page(input),
    );
  }
}

function page(input: PageRequest): PageRequest {
  return {
    limit: input.limit,
    starting_after: input.starting_after,
    ending_before: input.ending_before,
  };
}
