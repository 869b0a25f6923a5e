import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { LookupSubjects } from '@switchboard/contracts';
import type { EmailLookup, PhoneNumberLookup, RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { LookupEmailDto, LookupPhoneNumberDto } from './lookup.dto';

// Lookups change nothing, and clients check addresses as they are typed: the read quota.
const lookup = { tag: 'Lookup', auth: 'api', role: 'write', rateLimit: 'read' } as const;

/** Phone number and email lookups, answered by the verify-lookup-preferences service. */
@Controller('v1/lookup')
export class LookupController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('phone-number')
  @HttpCode(200)
  @Route({
    ...lookup,
    summary:
      "Look up a phone number's country, line type and (with type: [classification]) allocated service from numbering metadata; carrier-only properties answer status unavailable",
    body: LookupPhoneNumberDto,
    response: { status: 200, description: 'The phone number lookup' },
  })
  phoneNumber(
    @ValidBody() body: LookupPhoneNumberDto,
    @CallContext() context: RequestContext,
  ): Promise<PhoneNumberLookup> {
    return this.services.send(LookupSubjects.PhoneNumber, { ...body }, context);
  }

  @Post('email')
  @HttpCode(200)
  @Route({
    ...lookup,
    summary:
      "Look up an email address: syntax, the domain's mail hosts, disposable, role and free-provider flags and a suggested correction",
    body: LookupEmailDto,
    response: { status: 200, description: 'The email lookup' },
  })
  email(
    @ValidBody() body: LookupEmailDto,
    @CallContext() context: RequestContext,
  ): Promise<EmailLookup> {
    return this.services.send(LookupSubjects.Email, { ...body }, context);
  }
}
