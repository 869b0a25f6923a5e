import { Inject, Injectable } from '@nestjs/common';
import { dnsResolver, isDnsNoData } from '@switchboard/platform';
import { NOTFOUND } from 'node:dns';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { dmarcCandidates } from './domain-name';
import { matchDkim, matchDmarc, matchReturnPath } from './domain-records';
import type { CnameAnswer, RecordOutcome, StoredDnsRecord, TxtAnswer } from './domain-records';

/** The part of `dns.promises.Resolver` the checker uses. */
export interface RecordResolver {
  resolveTxt(host: string): Promise<string[][]>;
  resolveCname(host: string): Promise<string[]>;
}

/**
 * Looks a domain's records up in DNS (through `DNS_SERVERS`) and says, per record, whether what
 * is published matches: TXT for DKIM and DMARC, the CNAME of the return-path host. TXT answers
 * arrive as 255-character strings and are joined per record; a time-out, SERVFAIL or refused
 * query is a temporary outcome, never "missing".
 */
@Injectable()
export class DomainDnsChecker {
  private readonly resolver: RecordResolver;
  /**
   * How long one verification may wait for DNS in all: within the caller's transport time-out,
   * so a server that does not answer gives `temporary_failure` rather than a gateway time-out.
   */
  private readonly budgetMs: number;

  constructor(@Inject(EMAIL_CONFIG) config: EmailConfig) {
    this.resolver = dnsResolver(config.DNS_SERVERS, config.DNS_TIMEOUT_MS);
    this.budgetMs = Math.max(200, Math.floor(config.TRANSPORT_TIMEOUT_MS * 0.6));
  }

  /** Every record given, checked at once; records of the same name share one lookup. */
  async check(
    domain: string,
    records: StoredDnsRecord[],
  ): Promise<Map<StoredDnsRecord, RecordOutcome>> {
    const lookups = new Map<string, Promise<TxtAnswer>>();
    const deadline = Date.now() + this.budgetMs;
    const txt = (host: string) => {
      let answer = lookups.get(host);
      if (!answer) {
        answer = this.withinBudget(this.answerTxt(host), deadline);
        lookups.set(host, answer);
      }
      return answer;
    };
    const cname = (host: string) => this.withinBudget(this.answerCname(host), deadline);
    const outcomes = await Promise.all(
      records.map(async (record): Promise<[StoredDnsRecord, RecordOutcome] | undefined> => {
        switch (record.purpose) {
          case 'dkim':
            return [record, matchDkim(record.host, await txt(record.host), record.value)];
          case 'return_path':
            return [record, matchReturnPath(record.host, await cname(record.host), record.value)];
          case 'dmarc':
            return [record, await this.checkDmarc(domain, txt)];
          case 'tracking':
          case 'inbound_mx':
            // This deployment publishes neither (tracking and inbound are refused on update).
            return undefined;
        }
      }),
    );
    return new Map(outcomes.filter((outcome) => outcome !== undefined));
  }

  /** The tree walk asks one name at a time and stops at the first DMARC record or failed lookup. */
  private async checkDmarc(
    domain: string,
    txt: (host: string) => Promise<TxtAnswer>,
  ): Promise<RecordOutcome> {
    const candidates = dmarcCandidates(domain);
    const answers: TxtAnswer[] = [];
    for (const candidate of candidates) {
      const answer = await txt(`_dmarc.${candidate}`);
      answers.push(answer);
      const outcome = matchDmarc(candidates.slice(0, answers.length), answers);
      if (outcome.check !== 'missing') return outcome;
    }
    return matchDmarc(candidates, answers);
  }

  /** The answer, or a time-out once the run's budget is spent. */
  private async withinBudget<T extends TxtAnswer | CnameAnswer>(
    answer: Promise<T>,
    deadline: number,
  ): Promise<T | { kind: 'error'; code: string }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ kind: 'error'; code: string }>((resolve) => {
      timer = setTimeout(
        () => resolve({ kind: 'error', code: 'ETIMEOUT' }),
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async answerTxt(host: string): Promise<TxtAnswer> {
    try {
      const records = await this.resolver.resolveTxt(host);
      if (records.length === 0) return { kind: 'none' };
      return { kind: 'records', records: records.map((chunks) => chunks.join('')) };
    } catch (err) {
      if (isDnsNoData(err)) return { kind: 'none' };
      return { kind: 'error', code: (err as { code?: string }).code ?? 'EUNKNOWN' };
    }
  }

  private async answerCname(host: string): Promise<CnameAnswer> {
    try {
      const targets = await this.resolver.resolveCname(host);
      if (targets.length === 0) return { kind: 'none', reason: 'nodata' };
      return { kind: 'records', targets };
    } catch (err) {
      if (isDnsNoData(err))
        return {
          kind: 'none',
          reason: (err as { code?: string }).code === NOTFOUND ? 'nxdomain' : 'nodata',
        };
      return { kind: 'error', code: (err as { code?: string }).code ?? 'EUNKNOWN' };
    }
  }
}
