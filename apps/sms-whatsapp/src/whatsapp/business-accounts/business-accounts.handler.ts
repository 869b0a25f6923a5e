import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { WhatsAppConnectSubjects } from '@switchboard/contracts';
import type {
  ListWhatsAppBusinessAccountsRequest,
  WhatsAppBusinessAccountRefRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { BusinessAccountsService } from './business-accounts.service';

/** Transport handlers of the WhatsApp Business Accounts. */
@Controller()
export class BusinessAccountsHandler {
  constructor(private readonly accounts: BusinessAccountsService) {}

  @Handles(WhatsAppConnectSubjects.ListBusinessAccounts)
  list(@Payload() input: ListWhatsAppBusinessAccountsRequest, @Ctx() context: BaseRpcContext) {
    return this.accounts.list(requestContextOf(context), input);
  }

  @Handles(WhatsAppConnectSubjects.GetBusinessAccount)
  get(@Payload() input: WhatsAppBusinessAccountRefRequest, @Ctx() context: BaseRpcContext) {
    return this.accounts.get(requestContextOf(context), input.business_account_ref);
  }
}
