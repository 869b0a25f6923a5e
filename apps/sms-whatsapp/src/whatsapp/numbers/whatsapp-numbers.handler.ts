import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { WhatsAppConnectSubjects } from '@switchboard/contracts';
import type {
  ListWhatsAppNumberEventsRequest,
  ListWhatsAppNumbersRequest,
  WhatsAppNumberIdRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { WhatsAppNumbersService } from './whatsapp-numbers.service';

/** Transport handlers of the workspace's WhatsApp numbers. */
@Controller()
export class WhatsAppNumbersHandler {
  constructor(private readonly numbers: WhatsAppNumbersService) {}

  @Handles(WhatsAppConnectSubjects.ListNumbers)
  list(@Payload() input: ListWhatsAppNumbersRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.list(requestContextOf(context), input);
  }

  @Handles(WhatsAppConnectSubjects.GetNumber)
  get(@Payload() input: WhatsAppNumberIdRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.get(requestContextOf(context), input.number_id);
  }

  @Handles(WhatsAppConnectSubjects.ListNumberEvents)
  listEvents(@Payload() input: ListWhatsAppNumberEventsRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.listEvents(requestContextOf(context), input);
  }

  @Handles(WhatsAppConnectSubjects.GetNumberProfile)
  profile(@Payload() input: WhatsAppNumberIdRequest, @Ctx() context: BaseRpcContext) {
    return this.numbers.profile(requestContextOf(context), input.number_id);
  }
}
