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
import type { MailHostsVerdict } from './mail-hosts';
import { lookUpPhoneNumber } from './phone-number-lookup';

/**
 * Phone number and email lookups. Neither writes anything; with an Idempotency-Key the answer
 * is stored under the key and a retry replays it (`runEffect`), without one nothing touches
 * the database.
 */
@Injectable()
export class LookupService {
  private readonly resolver: dns.Resolver;
  /** How long an email lookup waits for DNS at most: its answer must beat the caller's time-out. */
  private readonly dnsBudgetMs: number;

  constructor(
    private readonly writes: IdempotentWrites,
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG) config: VerifyLookupPreferencesConfig,
  ) {
    this.resolver = dnsResolver(config.DNS_SERVERS, config.DNS_TIMEOUT_MS);
    this.dnsBudgetMs = Math.max(100, config.TRANSPORT_TIMEOUT_MS - 1000);
  }

  phoneNumber(context: RequestContext, input: LookupPhoneNumberParams): Promise<PhoneNumberLookup> {
    return this.writes.runEffect(context, () =>
      Promise.resolve().then(() => lookUpPhoneNumber(input)),
    );
  }

  async email(context: RequestContext, input: LookupEmailParams): Promise<EmailLookup> {
    const { email } = input;
    if (looksLikeDisplayNameOrList(email)) {
      throw new AppError(LookupErrors.LookupEmailNotAnAddress, {
        param: 'email',
        message: 'email must be one bare address, without a display name',
      });
    }
    const replay = await this.writes.replayOf<EmailLookup>(context);
    if (replay) return replay;
    // DNS is asked before the key is claimed: a transaction (and a pooled connection) held
    // through slow name servers would starve the service's other requests.
    const parts = parseEmailAddress(email);
    const answer = parts
      ? emailAnswer(email, parts, await this.mailHostsWithin(parts.domain))
      : malformedAnswer(email);
    return this.writes.runEffect(context, () => Promise.resolve(answer));
  }

  /**
   * The domain's mail hosts, or `unknown` once the budget is spent (the queries of each round
   * are tried twice at DNS_TIMEOUT_MS, and a lookup can take two rounds): an answer that says
   * DNS could not tell, rather than the caller's time-out.
   */
  private mailHostsWithin(domain: string): Promise<MailHostsVerdict> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<MailHostsVerdict>((resolve) => {
      timer = setTimeout(() => resolve('unknown'), this.dnsBudgetMs);
    });
    return Promise.race([mailHostsOf(this.resolver, domain), deadline]).finally(() =>
      clearTimeout(timer),
    );
  }
}
