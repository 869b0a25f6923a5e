import { domainToASCII } from 'node:url';
import type { BounceType, DeliveryOutcome, RecipientResult } from './outbound-mail';

/** Longest reply text kept on a result. */
export const MAX_RESPONSE_LENGTH = 500;

/** What nodemailer reports for a transaction the server answered with 250 to DATA. */
export interface SmtpInfo {
  accepted: unknown[];
  rejected: unknown[];
  rejectedErrors?: SmtpError[];
  response: string;
}

/** The fields of a nodemailer error this module reads. */
export interface SmtpError {
  code?: string;
  originalCode?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  recipient?: string;
  rejectedErrors?: SmtpError[];
  message: string;
}

/** The outcome and bounce type of one SMTP reply (RFC 5321 codes, RFC 3463 enhanced status). */
export function classifyReply(
  code: number,
  text: string,
): { outcome: DeliveryOutcome; bounceType: BounceType | null } {
  if (code >= 200 && code < 300) return { outcome: 'delivered', bounceType: null };
  if (code >= 400 && code < 500) return { outcome: 'deferred', bounceType: 'soft' };
  if (code >= 500 && code < 600) return { outcome: 'bounced', bounceType: bounceTypeOf(text) };
  // 3xx or garbage where a completion was expected: nothing was decided, try again later.
  return { outcome: 'deferred', bounceType: 'undetermined' };
}

const USER_UNKNOWN =
  /user unknown|unknown user|no such (user|mailbox|recipient|address)|does not exist|doesn't exist|mailbox (not found|unavailable)|invalid (recipient|mailbox)|recipient not found|address unknown/i;
const MAILBOX_FULL = /mailbox (is )?full|over quota|quota exceeded|insufficient storage/i;
const RELAYING = /relay/i;
/** Replies that blame the sending host (its IP, its reputation, a DNS block list) or spam. */
const IP_BLOCK =
  /blocked using|block ?list|black ?list|\b(rbl|dnsbl|spamhaus|spamcop|barracuda|sorbs)\b|reputation|\bip\b|client host|sending host|spam/i;

/**
 * Bounce type of a permanent (5xx) reply: the enhanced status when the server gave one (5.1.x a
 * bad address or domain, hard, except 5.1.7/5.1.8 about the sender; 5.2.2 mailbox full, soft;
 * 5.2.1 disabled mailbox, hard; 5.7.x policy: the sending host blocked (IP, reputation, block
 * lists, spam) or else an administrative refusal), otherwise the usual wordings; `undetermined`
 * when neither says.
 */
export function bounceTypeOf(text: string): BounceType {
  const status = enhancedStatus(text);
  if (status) {
    const [, subject, detail] = status;
    if (subject === 1) return detail === 7 || detail === 8 ? 'admin' : 'hard';
    if (subject === 2 && detail === 2) return 'soft';
    if (subject === 2 && detail === 1) return 'hard';
    if (subject === 7) return RELAYING.test(text) || !IP_BLOCK.test(text) ? 'admin' : 'block';
  }
  if (MAILBOX_FULL.test(text)) return 'soft';
  if (USER_UNKNOWN.test(text)) return 'hard';
  if (RELAYING.test(text)) return 'admin';
  if (IP_BLOCK.test(text)) return 'block';
  return 'undetermined';
}

/** `[class, subject, detail]` of the enhanced status code that starts the reply text, if any. */
function enhancedStatus(text: string): [number, number, number] | undefined {
  const match = /^(?:\d{3}[ -])?([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** One line, at most MAX_RESPONSE_LENGTH characters. */
export function cleanResponse(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_RESPONSE_LENGTH ? `${line.slice(0, MAX_RESPONSE_LENGTH - 1)}…` : line;
}

/** The result a server's reply gives a recipient. */
function replyResult(recipient: string, code: number, response: string): RecipientResult {
  return {
    recipient,
    ...classifyReply(code, response),
    code: String(code),
    response: cleanResponse(response),
  };
}

/** A result decided without a reply from a server (DNS, connection, time-out). */
export function localResult(
  recipient: string,
  outcome: Exclude<DeliveryOutcome, 'delivered'>,
  bounceType: BounceType,
  response: string,
): RecipientResult {
  return { recipient, outcome, code: null, response: cleanResponse(response), bounceType };
}

/**
 * The results of a transaction the server accepted (250 to the end of DATA): the recipients it
 * accepted are delivered, each one it refused at RCPT TO takes its own reply. A recipient found
 * in neither list (should nodemailer ever spell it differently) is deferred: retrying is the
 * safe side.
 */
export function resultsFromInfo(recipients: string[], info: SmtpInfo): RecipientResult[] {
  const accepted = new Set(info.accepted.map((address) => addressKey(String(address))));
  const rejected = rejectionsByAddress(info.rejectedErrors);
  return recipients.map((recipient) => {
    const key = addressKey(recipient);
    const refusal = rejected.get(key);
    if (refusal) return errorResult(recipient, refusal, '');
    if (accepted.has(key))
      return replyResult(recipient, replyCode(info.response) ?? 250, info.response);
    return localResult(
      recipient,
      'deferred',
      'undetermined',
      'the server did not answer for this recipient',
    );
  });
}

/**
 * The results of a failed transaction: when every recipient was refused at RCPT TO each keeps
 * its own reply; otherwise (MAIL FROM or DATA refused, connection lost, time-out) the error
 * applies to all of them: a 5xx bounces, a 4xx or no reply at all defers. `context` names the
 * server for errors without a reply.
 */
export function resultsFromError(
  recipients: string[],
  error: SmtpError,
  context: string,
): RecipientResult[] {
  const rejected = rejectionsByAddress(error.rejectedErrors);
  return recipients.map((recipient) =>
    errorResult(recipient, rejected.get(addressKey(recipient)) ?? error, context),
  );
}

function errorResult(recipient: string, error: SmtpError, context: string): RecipientResult {
  const code = error.responseCode ?? (error.response ? replyCode(error.response) : undefined);
  if (code && error.response) return replyResult(recipient, code, error.response);
  return localResult(recipient, 'deferred', 'soft', describeFailure(error, context));
}

/** "4.4.1 connection to mx.example.com [192.0.2.1:25] failed: ECONNREFUSED" and the like. */
export function describeFailure(error: SmtpError, context: string): string {
  const reason = error.originalCode ?? error.code ?? 'error';
  const status = reason === 'ETIMEDOUT' || reason === 'ETIMEOUT' ? '4.4.2' : '4.4.1';
  const where = context ? ` ${context}` : '';
  return `${status} ${error.command === 'CONN' || !error.command ? 'connection' : error.command}${where} failed: ${reason} (${error.message})`;
}

/**
 * The server gave its verdict on this transaction (MAIL FROM, RCPT TO or DATA refused): the next
 * MX host would not be asked. Anything else (no connection, time-out, TLS, a 421 or a broken
 * greeting) is the host's failure, not the message's.
 */
export function answeredTransaction(error: SmtpError): boolean {
  return (error.code === 'EENVELOPE' || error.code === 'EMESSAGE') && error.responseCode !== 421;
}

function rejectionsByAddress(errors: SmtpError[] | undefined): Map<string, SmtpError> {
  const map = new Map<string, SmtpError>();
  for (const error of errors ?? []) {
    if (error.recipient) map.set(addressKey(error.recipient), error);
  }
  return map;
}

function replyCode(response: string): number | undefined {
  const match = /^([2-5]\d\d)\b/.exec(response.trim());
  return match ? Number(match[1]) : undefined;
}

/** An address as nodemailer puts it on the wire: domain in lower-case ASCII (punycode). */
export function addressKey(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return address.trim().toLowerCase();
  const domain = address.slice(at + 1).trim();
  return `${address.slice(0, at).trim()}@${domainToASCII(domain) || domain}`.toLowerCase();
}
