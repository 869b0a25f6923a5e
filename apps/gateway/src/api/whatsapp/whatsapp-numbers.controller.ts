import { Controller, Get, Inject, Param } from '@nestjs/common';
import { WhatsAppConnectSubjects } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  ListWhatsAppBusinessAccountsQuery,
  ListWhatsAppNumberEventsQuery,
  ListWhatsAppNumbersQuery,
} from './whatsapp-numbers.dto';

const numbers = { tag: 'WhatsApp numbers', auth: 'api', role: 'read' } as const;
const accounts = { tag: 'WhatsApp business accounts', auth: 'api', role: 'read' } as const;

/** The SDK's `bird.whatsapp.numbers`: the numbers the workspace connected. */
@Controller('v1/whatsapp/numbers')
export class WhatsAppNumbersController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...numbers,
    rateLimit: 'api_list',
    paginated: true,
    summary: "List the workspace's WhatsApp numbers, newest first, with WhatsApp's state of each",
    query: ListWhatsAppNumbersQuery,
    response: { status: 200, description: 'A page of WhatsApp numbers' },
  })
  list(@ValidQuery() query: ListWhatsAppNumbersQuery, @CallContext() context: RequestContext) {
    return this.services.send(WhatsAppConnectSubjects.ListNumbers, { ...query }, context);
  }

  @Get(':whatsapp_number_id')
  @Route({
    ...numbers,
    rateLimit: 'read',
    summary: 'Get a WhatsApp number and the state WhatsApp reported for it',
    response: { status: 200, description: 'The WhatsApp number' },
  })
  get(@Param('whatsapp_number_id') numberId: string, @CallContext() context: RequestContext) {
    return this.services.send(WhatsAppConnectSubjects.GetNumber, { number_id: numberId }, context);
  }

  @Get(':whatsapp_number_id/events')
  @Route({
    ...numbers,
    rateLimit: 'api_list',
    paginated: true,
    summary:
      "A WhatsApp number's history (created, status, quality and limit changes), newest first",
    query: ListWhatsAppNumberEventsQuery,
    response: { status: 200, description: 'A page of number events' },
  })
  listEvents(
    @Param('whatsapp_number_id') numberId: string,
    @ValidQuery() query: ListWhatsAppNumberEventsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      WhatsAppConnectSubjects.ListNumberEvents,
      { ...query, number_id: numberId },
      context,
    );
  }

  @Get(':whatsapp_number_id/profile')
  @Route({
    ...numbers,
    rateLimit: 'read',
    summary: 'The business profile WhatsApp shows for the number, read live from WhatsApp',
    response: { status: 200, description: 'The business profile' },
    errors: [503],
  })
  profile(@Param('whatsapp_number_id') numberId: string, @CallContext() context: RequestContext) {
    return this.services.send(
      WhatsAppConnectSubjects.GetNumberProfile,
      { number_id: numberId },
      context,
    );
  }
}

/** The SDK's `bird.whatsapp.businessAccounts`: the accounts of the workspace's numbers. */
@Controller('v1/whatsapp/business-accounts')
export class WhatsAppBusinessAccountsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...accounts,
    rateLimit: 'api_list',
    paginated: true,
    summary: "List the workspace's WhatsApp Business Accounts, newest first",
    query: ListWhatsAppBusinessAccountsQuery,
    response: { status: 200, description: 'A page of WhatsApp Business Accounts' },
  })
  list(
    @ValidQuery() query: ListWhatsAppBusinessAccountsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(WhatsAppConnectSubjects.ListBusinessAccounts, { ...query }, context);
  }

  @Get(':business_account_ref')
  @Route({
    ...accounts,
    rateLimit: 'read',
    summary: 'Get a WhatsApp Business Account by its waa_ id or Meta WABA id',
    response: { status: 200, description: 'The WhatsApp Business Account' },
  })
  get(@Param('business_account_ref') ref: string, @CallContext() context: RequestContext) {
    return this.services.send(
      WhatsAppConnectSubjects.GetBusinessAccount,
      { business_account_ref: ref },
      context,
    );
  }
}
