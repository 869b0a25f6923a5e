import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { SmsSenderSubjects } from '@switchboard/contracts';
import type {
  ListSmsSendersRequest,
  RegisterSmsSenderRequest,
  SmsSenderIdRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { SmsSendersService } from './sms-senders.service';

/** Transport handlers of the operator's SMS sender registry. */
@Controller()
export class SmsSendersHandler {
  constructor(private readonly senders: SmsSendersService) {}

  @Handles(SmsSenderSubjects.RegisterSender)
  register(@Payload() input: RegisterSmsSenderRequest, @Ctx() context: BaseRpcContext) {
    return this.senders.register(requestContextOf(context), input);
  }

  @Handles(SmsSenderSubjects.ListSenders)
  list(@Payload() input: ListSmsSendersRequest, @Ctx() context: BaseRpcContext) {
    return this.senders.list(requestContextOf(context), input);
  }

  @Handles(SmsSenderSubjects.DeleteSender)
  remove(@Payload() input: SmsSenderIdRequest, @Ctx() context: BaseRpcContext) {
    return this.senders.remove(requestContextOf(context), input.workspace_id, input.sender_id);
  }
}
