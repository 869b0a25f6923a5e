import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { VerifySubjects } from '@switchboard/contracts';
import type {
  VerifyVerificationsCheckParams,
  VerifyVerificationsCreateParams,
  VerifyVerificationsNextChannelParams,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { VerificationsService } from './verifications.service';

/** Transport handlers of verifications; the gateway has validated every payload's shape. */
@Controller()
export class VerificationsHandler {
  constructor(private readonly verifications: VerificationsService) {}

  @Handles(VerifySubjects.Create)
  create(@Payload() input: VerifyVerificationsCreateParams, @Ctx() context: BaseRpcContext) {
    return this.verifications.create(requestContextOf(context), input);
  }

  @Handles(VerifySubjects.Check)
  check(@Payload() input: VerifyVerificationsCheckParams, @Ctx() context: BaseRpcContext) {
    return this.verifications.check(requestContextOf(context), input);
  }

  @Handles(VerifySubjects.NextChannel)
  nextChannel(
    @Payload() input: VerifyVerificationsNextChannelParams,
    @Ctx() context: BaseRpcContext,
  ) {
    return this.verifications.nextChannel(requestContextOf(context), input);
  }
}
