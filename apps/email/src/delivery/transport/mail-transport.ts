import type { MxResolver } from './mx-routes';
import type { OutboundMail, RecipientResult } from './outbound-mail';

/**
 * What carries the email service's mail out, behind one interface: one implementation per way
 * of sending (`SmtpRelayTransport` for SMTP_RELAY_URL, `DirectMxTransport` to each domain's MX
 * hosts), one instance per process, chosen at start from the configuration
 * (`mailTransportProvider`) and injected with `@Inject(MAIL_TRANSPORT)`; nothing else in the
 * service knows which one runs.
 * - `destinationOf(recipient)`: the key the service groups recipients by before delivering (one
 *   attempt, and one job, per destination): "relay", or the recipient's domain.
 * - `deliver(mail)`: one `RecipientResult` per address of `mail.recipients`, in their order
 *   (delivered, deferred or bounced, with the server's code and reply). Server refusals, DNS and
 *   connection failures are results, never exceptions; it throws only when the message cannot be
 *   composed (a broken DKIM key, say).
 * - `isClosing`: true once `close` was called; deliveries from then on are deferred without
 *   trying ("shutting down"), so their results say nothing about the mail.
 * - `close()`: stops taking deliveries, lets those in flight finish their current transaction,
 *   then releases every connection. Safe to call more than once; Nest calls it at shutdown.
 */
export interface MailTransport {
  destinationOf(recipient: string): string;
  deliver(mail: OutboundMail): Promise<RecipientResult[]>;
  readonly isClosing: boolean;
  close(): Promise<void>;
}

/** Nest injection token of the process's `MailTransport`. */
export const MAIL_TRANSPORT = Symbol('MAIL_TRANSPORT');

/** Settings that are not the operator's business: tests and benchmarks set them. */
export interface MailTransportOptions {
  /** Port of every MX host (default EMAIL_MX_PORT). Direct delivery only. */
  mxPort?: number;
  /**
   * Answers MX, A and AAAA lookups instead of `dnsResolver(DNS_SERVERS, DNS_TIMEOUT_MS)`. Direct
   * delivery only.
   */
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
