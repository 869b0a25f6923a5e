import { Inject, Injectable, Optional } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { domainToASCII } from 'node:url';
import { createTransport } from 'nodemailer';
import type { SendMailOptions, SMTPPoolOptions, Transporter } from 'nodemailer';
import { dnsResolver, KeyedSemaphore, Semaphore } from '@switchboard/platform';
import { EMAIL_CONFIG } from '../../config/email.config';
import type { EmailConfig } from '../../config/email.config';
import { ComposePool } from './compose-pool';
import { resolveHostAddresses, resolveMxRoute } from './mx-routes';
import type { MxResolver } from './mx-routes';
import type { OutboundMail, RecipientResult } from './outbound-mail';
import { describeFailure, localResult, resultsFromError, resultsFromInfo } from './smtp-replies';
import type { SmtpError, SmtpInfo } from './smtp-replies';

/** Settings that are not the operator's business: tests and benchmarks set them. */
export interface MailTransportOptions {
  /** Port of every MX host (default 25). */
  mxPort?: number;
  /** Answers MX, A and AAAA lookups instead of `dnsResolver(DNS_SERVERS, DNS_TIMEOUT_MS)`. */
  resolver?: MxResolver;
  /** Time to open a TCP connection to a host before moving on (default 30 s). */
  connectionTimeoutMs?: number;
  /** Time to wait for the server's greeting (default 30 s). */
  greetingTimeoutMs?: number;
  /** Inactivity on an open connection before it is given up (default 5 min, RFC 5321 4.5.3.2). */
  socketTimeoutMs?: number;
  /** How long an unused connection stays open for the next message (default 30 s). */
  idleTimeoutMs?: number;
}
export const MAIL_TRANSPORT_OPTIONS = Symbol('MAIL_TRANSPORT_OPTIONS');

/** The destination of every recipient when a relay takes all mail. */
export const RELAY_DESTINATION = 'relay';
/** RCPT TO per transaction: many servers refuse more than 100 with 452; Postfix sends 50. */
export const MAX_RECIPIENTS_PER_TRANSACTION = 50;
/** Addresses tried per delivery (over all MX hosts) before it is deferred, as Postfix does. */
const MAX_ADDRESSES_TRIED = 5;
/** Messages over one connection before it is replaced. */
const MAX_MESSAGES_PER_CONNECTION = 100;

interface Pool {
  mailer: Transporter;
  inFlight: number;
  lastUsed: number;
}

type Attempt = { info: SmtpInfo } | { error: SmtpError };

/**
 * Hands one composed message to a mail server and says what became of each recipient. One per
 * process. With `SMTP_RELAY_URL` every message goes through one pooled connection set to the
 * relay; without it, to each recipient domain's MX hosts (looked up through `DNS_SERVERS`), tried
 * in preference order, a host that cannot be reached giving way to the next. Connections are
 * pooled per MX host and address and reused across messages. At most
 * `EMAIL_DESTINATION_CONCURRENCY` deliveries run at once per destination (domain, or the relay)
 * and `EMAIL_DELIVERY_CONCURRENCY` in all. SMTP and DNS problems are outcomes, never exceptions.
 */
@Injectable()
export class MailTransport implements OnApplicationShutdown {
  private readonly relay: Transporter | undefined;
  private readonly relayName: string;
  private readonly pools = new Map<string, Pool>();
  private readonly resolver: MxResolver;
  private readonly destinations: KeyedSemaphore;
  private readonly all: Semaphore;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly mxPort: number;
  private readonly idleTimeoutMs: number;
  private readonly timeouts: Pick<
    SMTPPoolOptions,
    'connectionTimeout' | 'greetingTimeout' | 'socketTimeout'
  >;
  private readonly composer: ComposePool;
  private closing: Promise<void> | undefined;

  /** True once `close` was called: deliveries answer "shutting down" instead of trying. */
  get isClosing(): boolean {
    return this.closing !== undefined;
  }

  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    @Optional() @Inject(MAIL_TRANSPORT_OPTIONS) options: MailTransportOptions = {},
  ) {
    this.resolver = options.resolver ?? dnsResolver(config.DNS_SERVERS, config.DNS_TIMEOUT_MS);
    this.mxPort = options.mxPort ?? config.EMAIL_MX_PORT;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
    this.timeouts = {
      connectionTimeout: options.connectionTimeoutMs ?? 30_000,
      greetingTimeout: options.greetingTimeoutMs ?? 30_000,
      socketTimeout: options.socketTimeoutMs ?? 5 * 60_000,
    };
    this.destinations = new KeyedSemaphore(config.EMAIL_DESTINATION_CONCURRENCY);
    this.all = new Semaphore(config.EMAIL_DELIVERY_CONCURRENCY);
    this.relayName = config.SMTP_RELAY_URL ? relayHost(config.SMTP_RELAY_URL) : '';
    this.relay = config.SMTP_RELAY_URL
      ? createTransport({
          ...this.poolDefaults(),
          pool: true,
          url: config.SMTP_RELAY_URL,
        })
      : undefined;
    this.composer = new ComposePool(config.EMAIL_COMPOSE_THREADS);
    this.sweeper = setInterval(() => this.sweep(), this.idleTimeoutMs);
    this.sweeper.unref();
  }

  /** "relay" when SMTP_RELAY_URL is set, else the recipient's domain in lower-case ASCII. */
  destinationOf(recipient: string): string {
    if (this.relay) return RELAY_DESTINATION;
    return recipientDomain(recipient);
  }

  /**
   * Sends `mail` to its recipients and gives one result per recipient, in their order. Recipients
   * of several destinations are split among them (callers normally give one), more than
   * MAX_RECIPIENTS_PER_TRANSACTION into several transactions. Throws only when the message
   * cannot be composed (see `composeMessage`); composing runs on the compose threads.
   */
  async deliver(mail: OutboundMail): Promise<RecipientResult[]> {
    if (mail.recipients.length === 0) return [];
    const raw = await this.composer.compose(mail);
    const groups = new Map<string, string[]>();
    for (const recipient of new Set(mail.recipients)) {
      const destination = this.destinationOf(recipient);
      groups.set(destination, [...(groups.get(destination) ?? []), recipient]);
    }
    const batches: Array<Promise<RecipientResult[]>> = [];
    for (const [destination, recipients] of groups) {
      for (let i = 0; i < recipients.length; i += MAX_RECIPIENTS_PER_TRANSACTION) {
        const batch = recipients.slice(i, i + MAX_RECIPIENTS_PER_TRANSACTION);
        batches.push(this.track(this.deliverBatch(destination, mail.envelopeFrom, batch, raw)));
      }
    }
    const byRecipient = new Map<string, RecipientResult>();
    for (const results of await Promise.all(batches)) {
      for (const result of results) byRecipient.set(result.recipient, result);
    }
    return mail.recipients.map((recipient) => ({ ...byRecipient.get(recipient)!, recipient }));
  }

  /**
   * Stops taking deliveries (later ones are deferred), lets those in flight finish their current
   * transaction, then closes every connection. Safe to call more than once.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.sweeper);
      this.relay?.close();
      for (const pool of this.pools.values()) pool.mailer.close();
      while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
      for (const pool of this.pools.values()) pool.mailer.close();
      this.pools.clear();
      await this.composer.close();
    })();
    return this.closing;
  }

  /** At application shutdown, after the delivery workers stopped (beforeApplicationShutdown). */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  private async deliverBatch(
    destination: string,
    envelopeFrom: string,
    recipients: string[],
    raw: Buffer,
  ): Promise<RecipientResult[]> {
    return this.destinations.use(destination, () =>
      this.all.use(async () => {
        if (this.closing) return shuttingDown(recipients);
        if (this.relay) {
          const attempt = await send(this.relay, envelopeFrom, recipients, raw);
          return 'info' in attempt
            ? resultsFromInfo(recipients, attempt.info)
            : resultsFromError(recipients, attempt.error, `to relay ${this.relayName}`);
        }
        return this.deliverDirect(destination, envelopeFrom, recipients, raw);
      }),
    );
  }

  /**
   * Delivery to the domain's MX hosts in order: a host without addresses or that cannot be
   * reached (refused, time-out, TLS failure, 421 or a broken greeting) gives way to the next;
   * the first server that answers the transaction decides. All unreachable: deferred.
   */
  private async deliverDirect(
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
        if (this.closing) return shuttingDown(recipients);
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

  private async sendToHost(
    host: string,
    address: string,
    envelopeFrom: string,
    recipients: string[],
    raw: Buffer,
  ): Promise<Attempt> {
    const key = `${host}@${address}:${this.mxPort}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const named = host !== address;
      pool = {
        mailer: createTransport({
          ...this.poolDefaults(),
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
      return await send(pool.mailer, envelopeFrom, recipients, raw);
    } finally {
      pool.inFlight--;
      pool.lastUsed = Date.now();
    }
  }

  private poolDefaults(): SMTPPoolOptions {
    return {
      name: this.config.EMAIL_HELO_NAME,
      maxConnections: this.config.EMAIL_DESTINATION_CONCURRENCY,
      maxMessages: MAX_MESSAGES_PER_CONNECTION,
      idleTimeout: this.idleTimeoutMs,
      ...this.timeouts,
      logger: false,
      debug: false,
    };
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

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }
}

/** One SMTP transaction over a pool; nodemailer's result or its error, never a rejection. */
async function send(
  mailer: Transporter,
  envelopeFrom: string,
  recipients: string[],
  raw: Buffer,
): Promise<Attempt> {
  const message: SendMailOptions = {
    envelope: { from: envelopeFrom, to: recipients, size: raw.length },
    raw,
  };
  try {
    return { info: (await mailer.sendMail(message)) as SmtpInfo };
  } catch (error) {
    return { error: error as SmtpError };
  }
}

/**
 * The server gave its verdict on this transaction (MAIL FROM, RCPT TO or DATA refused): the next
 * MX host would not be asked. Anything else (no connection, time-out, TLS, a 421 or a broken
 * greeting) is the host's failure, not the message's.
 */
function answeredTransaction(error: SmtpError): boolean {
  return (error.code === 'EENVELOPE' || error.code === 'EMESSAGE') && error.responseCode !== 421;
}

function recipientDomain(recipient: string): string {
  const domain = recipient
    .slice(recipient.lastIndexOf('@') + 1)
    .trim()
    .replace(/\.$/, '')
    .toLowerCase();
  if (domain.startsWith('[')) return domain;
  return domainToASCII(domain) || domain;
}

function relayHost(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return 'relay';
  }
}

function shuttingDown(recipients: string[]): RecipientResult[] {
  return recipients.map((recipient) =>
    localResult(recipient, 'deferred', 'soft', '4.3.2 the mail transport is shutting down'),
  );
}
