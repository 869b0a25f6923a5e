import type { OnApplicationShutdown } from '@nestjs/common';
import type { SendMailOptions, SMTPPoolOptions, Transporter } from 'nodemailer';
import { KeyedSemaphore, Semaphore } from '@switchboard/platform';
import type { EmailConfig } from '../../config/email.config';
import { ComposePool } from './compose-pool';
import type { MailTransport, MailTransportOptions } from './mail-transport';
import type { OutboundMail, RecipientResult } from './outbound-mail';
import { localResult } from './smtp-replies';
import type { SmtpError, SmtpInfo } from './smtp-replies';

/** RCPT TO per transaction: many servers refuse more than 100 with 452; Postfix sends 50. */
const MAX_RECIPIENTS_PER_TRANSACTION = 50;
/** Messages over one connection before it is replaced. */
const MAX_MESSAGES_PER_CONNECTION = 100;

/** One SMTP transaction's end: nodemailer's result, or its error. */
export type SmtpAttempt = { info: SmtpInfo } | { error: SmtpError };

/**
 * What the SMTP transports share, as medusa's providers share their abstract base: the message
 * composed once (on the compose threads), its recipients split by destination and into
 * transactions of at most MAX_RECIPIENTS_PER_TRANSACTION, at most
 * `EMAIL_DESTINATION_CONCURRENCY` transactions at once per destination and
 * `EMAIL_DELIVERY_CONCURRENCY` in all, and the shutdown. A subclass says where a recipient goes
 * (`destinationOf`), how one transaction reaches it (`deliverBatch`) and how its connections
 * close (`closeConnections`).
 */
export abstract class SmtpTransport implements MailTransport, OnApplicationShutdown {
  protected readonly idleTimeoutMs: number;
  private readonly timeouts: Pick<
    SMTPPoolOptions,
    'connectionTimeout' | 'greetingTimeout' | 'socketTimeout'
  >;
  private readonly destinations: KeyedSemaphore;
  private readonly all: Semaphore;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly composer: ComposePool;
  private closing: Promise<void> | undefined;

  protected constructor(
    protected readonly config: EmailConfig,
    options: MailTransportOptions,
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
    this.timeouts = {
      connectionTimeout: options.connectionTimeoutMs ?? 30_000,
      greetingTimeout: options.greetingTimeoutMs ?? 30_000,
      socketTimeout: options.socketTimeoutMs ?? 5 * 60_000,
    };
    this.destinations = new KeyedSemaphore(config.EMAIL_DESTINATION_CONCURRENCY);
    this.all = new Semaphore(config.EMAIL_DELIVERY_CONCURRENCY);
    this.composer = new ComposePool(config.EMAIL_COMPOSE_THREADS);
  }

  abstract destinationOf(recipient: string): string;

  /**
   * One transaction's recipients (all of `destination`) sent `raw`: one result per recipient.
   * Runs within the concurrency limits, once the transport is known not to be closing.
   */
  protected abstract deliverBatch(
    destination: string,
    envelopeFrom: string,
    recipients: string[],
    raw: Buffer,
  ): Promise<RecipientResult[]>;

  /** Closes the idle connections; called at `close`, and again once the deliveries finished. */
  protected abstract closeConnections(): void;

  get isClosing(): boolean {
    return this.closing !== undefined;
  }

  /**
   * Recipients of several destinations are split among them (callers normally give one), more
   * than MAX_RECIPIENTS_PER_TRANSACTION into several transactions. Throws only when the message
   * cannot be composed (see `composeMessage`).
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
        batches.push(this.track(this.limited(destination, mail.envelopeFrom, batch, raw)));
      }
    }
    const byRecipient = new Map<string, RecipientResult>();
    for (const results of await Promise.all(batches)) {
      for (const result of results) byRecipient.set(result.recipient, result);
    }
    return mail.recipients.map((recipient) => ({ ...byRecipient.get(recipient)!, recipient }));
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closeConnections();
      while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
      this.closeConnections();
      await this.composer.close();
    })();
    return this.closing;
  }

  /** At application shutdown, after the delivery workers stopped (beforeApplicationShutdown). */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** nodemailer pool settings common to every connection pool of the transport. */
  protected poolOptions(): SMTPPoolOptions {
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

  private limited(
    destination: string,
    envelopeFrom: string,
    recipients: string[],
    raw: Buffer,
  ): Promise<RecipientResult[]> {
    return this.destinations.use(destination, () =>
      this.all.use(async () => {
        if (this.closing) return shuttingDown(recipients);
        return this.deliverBatch(destination, envelopeFrom, recipients, raw);
      }),
    );
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }
}

/** One SMTP transaction over a pool; nodemailer's result or its error, never a rejection. */
export async function sendOver(
  mailer: Transporter,
  envelopeFrom: string,
  recipients: string[],
  raw: Buffer,
): Promise<SmtpAttempt> {
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

/** The results of a delivery the transport did not try because it is closing. */
export function shuttingDown(recipients: string[]): RecipientResult[] {
  return recipients.map((recipient) =>
    localResult(recipient, 'deferred', 'soft', '4.3.2 the mail transport is shutting down'),
  );
}
