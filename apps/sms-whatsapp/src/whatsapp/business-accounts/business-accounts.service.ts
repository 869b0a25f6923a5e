import { Injectable } from '@nestjs/common';
import { WhatsAppConnectErrors } from '@switchboard/contracts';
import type {
  ListWhatsAppBusinessAccountsRequest,
  RequestContext,
  WhatsAppBusinessAccount,
} from '@switchboard/contracts';
import { CursorCodec } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { toBusinessAccount } from './business-account.row';
import { BusinessAccountsRepository } from './business-accounts.repository';

/** The SDK's `whatsapp.businessAccounts`: the accounts the workspace's numbers connected. */
@Injectable()
export class BusinessAccountsService {
  constructor(
    private readonly accounts: BusinessAccountsRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async list(
    context: RequestContext,
    input: ListWhatsAppBusinessAccountsRequest,
  ): Promise<Page<WhatsAppBusinessAccount>> {
    const page = await this.accounts.list(
      workspaceOf(context),
      {
        limit: input.limit,
        starting_after: input.starting_after,
        ending_before: input.ending_before,
        sort: input.sort,
        order: input.order,
      },
      this.cursors,
    );
    return { ...page, data: page.data.map(toBusinessAccount) };
  }

  /** By its `waa_` id or Meta's WABA id. */
  async get(context: RequestContext, ref: string): Promise<WhatsAppBusinessAccount> {
    const row = await this.accounts.findByRef(workspaceOf(context), ref);
    if (!row)
      throw new AppError(WhatsAppConnectErrors.WhatsAppBusinessAccountNotFound, {
        param: 'business_account_ref',
      });
    return toBusinessAccount(row);
  }
}
