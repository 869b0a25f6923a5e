import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { SmsSuppressionSubjects } from '@switchboard/contracts';
import type {
  AddSmsSuppressionRequest,
  ListSmsSuppressionsRequest,
  SmsSuppressionIdRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { SmsSuppressionsService } from './sms-suppressions.service';

/** Transport handlers of SMS suppressions; the gateway has checked every payload's shape. */
@Controller()
export class SmsSuppressionsHandler {
  constructor(private readonly suppressions: SmsSuppressionsService) {}

  @Handles(SmsSuppressionSubjects.List)
  list(@Payload() input: ListSmsSuppressionsRequest, @Ctx() context: BaseRpcContext) {
    return this.suppressions.list(requestContextOf(context), input);
  }

  @Handles(SmsSuppressionSubjects.Get)
  get(@Payload() input: SmsSuppressionIdRequest, @Ctx() context: BaseRpcContext) {
    return this.suppressions.get(requestContextOf(context), input.suppression_id);
  }

  @Handles(SmsSuppressionSubjects.Add)
  add(@Payload() input: AddSmsSuppressionRequest, @Ctx() context: BaseRpcContext) {
    return this.suppressions.add(requestContextOf(context), input);
  }

  @Handles(SmsSuppressionSubjects.Remove)
  remove(@Payload() input: SmsSuppressionIdRequest, @Ctx() context: BaseRpcContext) {
    return this.suppressions.remove(requestContextOf(context), input.suppression_id);
  }
}
