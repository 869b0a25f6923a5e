import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { EmailBroadcastSubjects } from '@switchboard/contracts';
import type {
  CreateEmailBroadcastRequest,
  EmailBroadcastIdRequest,
  ListEmailBroadcastEventsRequest,
  ListEmailBroadcastRecipientsRequest,
  ListEmailBroadcastsRequest,
  ListTemplateBroadcastsRequest,
  SendEmailBroadcastRequest,
  UpdateEmailBroadcastRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { BroadcastInsightsService } from './broadcast-insights.service';
import { BroadcastSendsService } from './broadcast-sends.service';
import { BroadcastsService } from './broadcasts.service';

/** Transport handlers of broadcasts; the gateway has checked each payload's shape. */
@Controller()
export class BroadcastsHandler {
  constructor(
    private readonly broadcasts: BroadcastsService,
    private readonly sends: BroadcastSendsService,
    private readonly insights: BroadcastInsightsService,
  ) {}

  @Handles(EmailBroadcastSubjects.Create)
  create(@Payload() input: CreateEmailBroadcastRequest, @Ctx() context: BaseRpcContext) {
    return this.broadcasts.create(requestContextOf(context), input.body);
  }

  @Handles(EmailBroadcastSubjects.List)
  list(@Payload() input: ListEmailBroadcastsRequest, @Ctx() context: BaseRpcContext) {
    return this.broadcasts.list(requestContextOf(context), input);
  }

  @Handles(EmailBroadcastSubjects.Get)
  get(@Payload() input: EmailBroadcastIdRequest, @Ctx() context: BaseRpcContext) {
    return this.broadcasts.get(requestContextOf(context), input.broadcast_id);
  }

  @Handles(EmailBroadcastSubjects.Update)
  update(@Payload() input: UpdateEmailBroadcastRequest, @Ctx() context: BaseRpcContext) {
    return this.broadcasts.update(requestContextOf(context), input.broadcast_id, input.body);
  }

  @Handles(EmailBroadcastSubjects.Delete)
  remove(@Payload() input: EmailBroadcastIdRequest, @Ctx() context: BaseRpcContext) {
    return this.broadcasts.remove(requestContextOf(context), input.broadcast_id);
  }

  @Handles(EmailBroadcastSubjects.Send)
  send(@Payload() input: SendEmailBroadcastRequest, @Ctx() context: BaseRpcContext) {
    return this.sends.send(requestContextOf(context), input);
  }

  @Handles(EmailBroadcastSubjects.Cancel)
  cancel(@Payload() input: EmailBroadcastIdRequest, @Ctx() context: BaseRpcContext) {
    return this.sends.cancel(requestContextOf(context), input.broadcast_id);
  }

  @Handles(EmailBroadcastSubjects.Counts)
  counts(@Payload() input: EmailBroadcastIdRequest, @Ctx() context: BaseRpcContext) {
    return this.insights.counts(requestContextOf(context), input.broadcast_id);
  }

  @Handles(EmailBroadcastSubjects.SendQuota)
  sendQuota(@Payload() input: EmailBroadcastIdRequest, @Ctx() context: BaseRpcContext) {
    return this.insights.sendQuota(requestContextOf(context), input.broadcast_id);
  }

  @Handles(EmailBroadcastSubjects.ListEvents)
  events(@Payload() input: ListEmailBroadcastEventsRequest, @Ctx() context: BaseRpcContext) {
    return this.insights.events(requestContextOf(context), input);
  }

  @Handles(EmailBroadcastSubjects.ListRecipients)
  recipients(
    @Payload() input: ListEmailBroadcastRecipientsRequest,
    @Ctx() context: BaseRpcContext,
  ) {
    return this.insights.recipients(requestContextOf(context), input);
  }

  @Handles(EmailBroadcastSubjects.ClickedLinks)
  clickedLinks(@Payload() input: EmailBroadcastIdRequest, @Ctx() context: BaseRpcContext) {
    return this.insights.clickedLinks(requestContextOf(context), input.broadcast_id);
  }

  @Handles(EmailBroadcastSubjects.ListForTemplate)
  forTemplate(@Payload() input: ListTemplateBroadcastsRequest, @Ctx() context: BaseRpcContext) {
    return this.insights.forTemplate(requestContextOf(context), input);
  }
}
