import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { LookupSubjects } from '@switchboard/contracts';
import type { LookupEmailParams, LookupPhoneNumberParams } from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { LookupService } from './lookup.service';

/** Transport handlers of lookups; the gateway has validated every payload's shape. */
@Controller()
export class LookupHandler {
  constructor(private readonly lookups: LookupService) {}

  @Handles(LookupSubjects.PhoneNumber)
  phoneNumber(@Payload() input: LookupPhoneNumberParams, @Ctx() context: BaseRpcContext) {
    return this.lookups.phoneNumber(requestContextOf(context), input);
  }

  @Handles(LookupSubjects.Email)
  email(@Payload() input: LookupEmailParams, @Ctx() context: BaseRpcContext) {
    return this.lookups.email(requestContextOf(context), input);
  }
}
