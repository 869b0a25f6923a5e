import type { EmailAddress } from '@switchboard/contracts';

/** One composed message for the recipients of one destination, as the transport sends it. */
export interface OutboundMail {
  /** Message-ID without angle brackets, e.g. `em_01...@example.com`. */
  messageId: string;
  /** Header addresses. Bcc never appears in the headers: those recipients are in `recipients` only. */
  from: EmailAddress;
  to: EmailAddress[];
  cc: EmailAddress[];
  replyTo: EmailAddress[];
  subject: string;
  html?: string;
  text?: string;
  /** Custom headers, set as given (the ones the transport writes itself are left out). */
  headers: Record<string, string>;
  attachments: Array<{
    filename: string;
    /** base64 */
    content: string;
    contentType: string;
    contentId?: string;
  }>;
  /** MAIL FROM (the return path). */
  envelopeFrom: string;
  /** RCPT TO, all at one destination (see `MailTransport.destinationOf`). */
  recipients: string[];
  /** Signs the message (DKIM-Signature, rsa-sha256, relaxed/relaxed) when given. */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

export type DeliveryOutcome = 'delivered' | 'deferred' | 'bounced';

export type BounceType = 'hard' | 'soft' | 'undetermined' | 'admin' | 'block';

/** What became of one recipient in one delivery attempt. */
export interface RecipientResult {
  /** As given in `OutboundMail.recipients`. */
  recipient: string;
  outcome: DeliveryOutcome;
  /** The 3-digit SMTP reply code, or null when no server replied (DNS, connection, time-out). */
  code: string | null;
  /** The server's reply text (at most 500 characters), or what went wrong without one. */
  response: string;
  /** Null when delivered. */
  bounceType: BounceType | null;
}
