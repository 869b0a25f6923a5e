import { domainToASCII } from 'node:url';
import { createTransport } from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { dnsResolver } from '@switchboard/platform';
import type { EmailConfig } from '../../config/email.config';
import type { MailTransportOptions } from './mail-transport';
import { resolveHostAddresses, resolveMxRoute } from './mx-routes';
import type { MxResolver } from './mx-routes';
import type { RecipientResult } from './outbound-mail';
import {
  answeredTransaction,
  describeFailure,
  localResult,
  resultsFromError,
  resultsFromInfo,
} from './smtp-replies';
import { sendOver, shuttingDown, SmtpTransport } from './smtp-transport';
import type { SmtpAttempt } from './smtp-transport';

/** Addresses tried per delivery (over all MX hosts) before it is deferred, as Postfix does. */
const MAX_ADDRESSES_TRIED = 5;

interface Pool {
  mailer: Transporter;
  inFlight: number;
  lastUsed: number;
}

/**
 * Mail to each recipient domain's MX hosts (looked up through `DNS_SERVERS`, see `mx-routes`),
 * tried in preference order, a host that cannot be reached giving way to the next. Connections
 * are pooled per MX host and address and reused across messages; a pool unused for the idle
 * time goes.
 */
export class DirectMxTransport extends SmtpTransport {
  private readonly pools = new Map<string, Pool>();
  private readonly resolver: MxResolver;
  private readonly mxPort: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(config: EmailConfig, options: MailTransportOptions = {}) {
    super(config, options);
    this.resolver = options.resolver ?? dnsResolver(config.DNS_SERVERS, config.DNS_TIMEOUT_MS);
    this.mxPort = options.mxPort ?? config.EMAIL_MX_PORT;
    this.sweeper = setInterval(() => this.sweep(), this.idleTimeoutMs);
    this.sweeper.unref();
  }

  /** The recipient's domain in lower-case ASCII (an address literal as written). */
  destinationOf(recipient: string): string {
    const domain = recipient
      .slice(recipient.lastIndexOf('@') + 1)
      .trim()
      .replace(/\.$/, '')
      .toLowerCase();
    if (domain.startsWith('[')) return domain;
    return domainToASCII(domain) || domain;
  }

  /**
   * Delivery to the domain's MX hosts in order: a host without addresses or that cannot be
   * reached (refused, time-out, TLS failure, 421 or a broken greeting) gives way to the next;
   * the first server that answers the transaction decides. All unreachable: deferred.
   */
  protected async deliverBatch(
    domain: string,
    envelopeFrom: string,
    recipients: string[],
    raw: Buffer,
  ): Promise<RecipientResult[]> {
    if (!/^[a-z0-9.-]+$|^\[[^\]]+\]$/.test(domain))
      return recipients.map((recipient) =>
        localResult(recipient, 'bounced', 'hard', `5.1.3 bad recipient domain "${domain}"`),
      );
    const route = await resolveMxRoute(this.resolver, domain);
    if (route.kind === 'bounce')
      return recipients.map((recipient) =>
        localResult(recipient, 'bounced', 'hard', route.response),
      );
    if (route.kind === 'defer')
      return recipients.map((recipient) =>
        localResult(recipient, 'deferred', 'soft', route.response),
      );
    const failures: string[] = [];
    let addressless = 0;
    let tried = 0;
    for (const host of route.hosts) {
      if (tried >= MAX_ADDRESSES_TRIED) break;
      const lookup = await resolveHostAddresses(this.resolver, host);
      if (lookup.kind !== 'addresses') {
        if (lookup.kind === 'none') addressless++;
        failures.push(lookup.reason);
        continue;
      }
      for (const address of lookup.addresses.slice(0, MAX_ADDRESSES_TRIED - tried)) {
        if (this.isClosing) return shuttingDown(recipients);
        tried++;
        const where = `to ${host} [${address}]:${this.mxPort}`;
        const attempt = await this.sendToHost(host, address, envelopeFrom, recipients, raw);
        if ('info' in attempt) return resultsFromInfo(recipients, attempt.info);
        if (answeredTransaction(attempt.error))
          return resultsFromError(recipients, attempt.error, where);
        failures.push(describeFailure(attempt.error, where));
      }
    }
    if (route.implicit && addressless === route.hosts.length)
      return recipients.map((recipient) =>
        localResult(recipient, 'bounced', 'hard', `5.1.2 ${domain} has no MX, A or AAAA record`),
      );
    const reason = `4.4.1 no mail server of ${domain} took the message: ${failures.join('; ')}`;
    return recipients.map((recipient) => localResult(recipient, 'deferred', 'soft', reason));
  }

  /** Stops the sweeper and closes every pool; those with nothing in flight go. */
  protected closeConnections(): void {
    clearInterval(this.sweeper);
    for (const [key, pool] of this.pools) {
      pool.mailer.close();
      if (pool.inFlight === 0) this.pools.delete(key);
    }
  }

  private async sendToHost(
    host: string,
    address: string,
    envelopeFrom: string,
    recipients: string[],
    raw: Buffer,
  ): Promise<SmtpAttempt> {
    const key = `${host}@${address}:${this.mxPort}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const named = host !== address;
      pool = {
        mailer: createTransport({
          ...this.poolOptions(),
          pool: true,
          host: address,
          port: this.mxPort,
          secure: false,
          // Opportunistic STARTTLS, as MTAs do: an MX host's certificate is rarely checkable.
          opportunisticTLS: true,
          tls: { rejectUnauthorized: false, ...(named ? { servername: host } : {}) },
          maxRequeues: 1,
        }),
        inFlight: 0,
        lastUsed: Date.now(),
      };
      this.pools.set(key, pool);
    }
    pool.inFlight++;
    try {
      return await sendOver(pool.mailer, envelopeFrom, recipients, raw);
    } finally {
      pool.inFlight--;
      pool.lastUsed = Date.now();
    }
  }

  /** Pools of MX hosts unused for an idle time go (their connections have closed by then). */
  private sweep(): void {
    const now = Date.now();
    for (const [key, pool] of this.pools) {
      if (pool.inFlight === 0 && now - pool.lastUsed >= this.idleTimeoutMs) {
        pool.mailer.close();
        this.pools.delete(key);
      }
    }
  }
}
