import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { EmailSubjects } from '@switchboard/contracts';
import type {
  CreateEmailSuppressionRequest,
  EmailSuppressionIdRequest,
  ListEmailSuppressionsRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { SuppressionsService } from './suppressions.service';

/** Transport handlers of the suppression list; the gateway has validated every payload. */
@Controller()
export class SuppressionsHandler {
  constructor(private readonly suppressions: SuppressionsService) {}

  @Handles(EmailSubjects.CreateSuppression)
  create(@Payload() input: CreateEmailSuppressionRequest, @Ctx() context: BaseRpcContext) {
    return this.suppressions.create(requestContextOf(context), input);
  }

  @Handles(EmailSubjects.ListSuppressions)
  list(@Payload() input: ListEmailSuppressionsRequest, @Ctx() context: BaseRpcContext) {
    return this.suppressions.list(requestContextOf(context), input);
  }

  @Handles(EmailSubjects.GetSuppression)
  get(@Payload() input: EmailSuppressionIdRequest, @Ctx() context: BaseRpcContext) {
    return this.suppressions.get(requestContextOf(context), input.suppression_id);
  }

  @Handles(EmailSubjects.DeleteSuppression)
  remove(@Payload() input: EmailSuppressionIdRequest, @Ctx() context: BaseRpcContext) {
    return this.suppressions.remove(requestContextOf(context), input.suppression_id);
  }
}
