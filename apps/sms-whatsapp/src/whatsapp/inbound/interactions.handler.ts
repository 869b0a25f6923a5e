import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { WhatsAppInteractionsSubjects as Subjects } from '@switchboard/contracts';
import type {
  ListWhatsAppReactionEventsRequest,
  ReadWhatsAppMediaRequest,
  WhatsAppMarkReadRequest,
  WhatsAppMediaLinkRequest,
  WhatsAppSetReactionRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { MediaService } from '../media/media.service';
import { InteractionsService } from '../reactions/interactions.service';

/** Transport handlers of read receipts, reactions and inbound media; the services apply every rule. */
@Controller()
export class InteractionsHandler {
  constructor(
    private readonly interactions: InteractionsService,
    private readonly media: MediaService,
  ) {}

  @Handles(Subjects.MarkRead)
  markRead(@Payload() input: WhatsAppMarkReadRequest, @Ctx() context: BaseRpcContext) {
    return this.interactions.markRead(requestContextOf(context), input);
  }

  @Handles(Subjects.SetReaction)
  setReaction(@Payload() input: WhatsAppSetReactionRequest, @Ctx() context: BaseRpcContext) {
    return this.interactions.setReaction(requestContextOf(context), input);
  }

  @Handles(Subjects.RemoveReaction)
  removeReaction(@Payload() input: { message_id: string }, @Ctx() context: BaseRpcContext) {
    return this.interactions.removeReaction(requestContextOf(context), input.message_id);
  }

  @Handles(Subjects.ListReactionEvents)
  listReactionEvents(
    @Payload() input: ListWhatsAppReactionEventsRequest,
    @Ctx() context: BaseRpcContext,
  ) {
    return this.interactions.listReactionEvents(requestContextOf(context), input);
  }

  @Handles(Subjects.MediaLink)
  mediaLink(@Payload() input: WhatsAppMediaLinkRequest, @Ctx() context: BaseRpcContext) {
    return this.media.link(requestContextOf(context), input);
  }

  /** No workspace: the signed link is the credential (it names one media row). */
  @Handles(Subjects.ReadMedia)
  readMedia(@Payload() input: ReadWhatsAppMediaRequest) {
    return this.media.read(input.token, input.offset);
  }
}
