import type { promises as dns } from 'node:dns';
import { Inject, Injectable } from '@nestjs/common';
import { LookupErrors } from '@switchboard/contracts';
import type {
  EmailLookup,
  LookupEmailParams,
  LookupPhoneNumberParams,
  PhoneNumberLookup,
  RequestContext,
} from '@switchboard/contracts';
import { IdempotentWrites } from '@switchboard/persistence';
import { AppError, dnsResolver } from '@switchboard/platform';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { looksLikeDisplayNameOrList, parseEmailAddress } from './email-address';
import { emailAnswer, malformedAnswer } from './email-lookup';
import { mailHostsOf } from './mail-hosts';
import { lookUpPhoneNumber } from './phone-number-lookup';

/**
 * Phone number and email lookups. Neither writes anything; with an Idempotency-Key the answer
 * is stored under the key and a retry replays it (`runEffect`), without one nothing touches
 * the database.
 */
@Injectable()
export class LookupService {
  private readonly resolver: dns.Resolver;

  constructor(
    private readonly writes: IdempotentWrites,
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG) config: VerifyLookupPreferencesConfig,
  ) {
    this.resolver = dnsResolver(config.DNS_SERVERS, config.DNS_TIMEOUT_MS);
  }

  phoneNumber(context: RequestContext, input: LookupPhoneNumberParams): Promise<PhoneNumberLookup> {
    return this.writes.runEffect(context, () =>
      Promise.resolve().then(() => lookUpPhoneNumber(input)),
    );
  }

  email(context: RequestContext, input: LookupEmailParams): Promise<EmailLookup> {
    const { email } = input;
    if (looksLikeDisplayNameOrList(email)) {
      throw new AppError(LookupErrors.LookupEmailNotAnAddress, {
        param: 'email',
        message: 'email must be one bare address, without a display name',
      });
    }
    return this.writes.runEffect(context, async () => {
      const parts = parseEmailAddress(email);
      if (!parts) return malformedAnswer(email);
      return emailAnswer(email, parts, await mailHostsOf(this.resolver, parts.domain));
    });
  }
}
