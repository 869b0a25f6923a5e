import { Inject, Injectable } from '@nestjs/common';
import { publicOriginOf } from '@switchboard/platform';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import type { OutboundMail } from '../delivery/transport/outbound-mail';
import { personalisedHtml, trackableHtml } from './link-rewriter';
import { TrackingTokens } from '@switchboard/contracts';

/** What a copy is made for: the message's settings and one recipient. */
export interface CopyMessage {
  id: string;
  category: string;
  track_opens: boolean;
  track_clicks: boolean;
}

export interface CopyRecipient {
  id: string;
  email: string;
}

/** The RFC 8058 header pair: both are covered by the DKIM signature (compose-message.ts). */
export const LIST_UNSUBSCRIBE_POST = 'List-Unsubscribe=One-Click';

/**
 * The links the email service puts in mail on PUBLIC_URL: open pixels (`/t/o/`), tracked links
 * (`/t/c/`) and unsubscribe links (`/u/`), each a signed token of one recipient's copy. A
 * message that tracks, or marketing mail (its List-Unsubscribe names the recipient), is sent as
 * one copy per recipient; the HTML is cut around its links once per message and each copy only
 * signs its tokens.
 */
@Injectable()
export class TrackingLinks {
  readonly tokens: TrackingTokens;
  readonly origin: string;

  constructor(
    @Inject(EMAIL_CONFIG) config: Pick<EmailConfig, 'ENCRYPTION_KEY' | 'PUBLIC_URL' | 'PORT'>,
  ) {
    this.tokens = new TrackingTokens(config.ENCRYPTION_KEY);
    this.origin = publicOriginOf(config);
  }

  /** Whether each recipient of the message gets a copy of their own. */
  personalises(message: CopyMessage): boolean {
    return message.track_opens || message.track_clicks || message.category === 'marketing';
  }

  /** `mail` for each recipient alone: its links, pixel and List-Unsubscribe headers. */
  copiesFor(mail: OutboundMail, message: CopyMessage, recipients: CopyRecipient[]): OutboundMail[] {
    const opens = message.track_opens && mail.html !== undefined;
    const clicks = message.track_clicks && mail.html !== undefined;
    const trackable =
      opens || clicks ? trackableHtml(mail.html ?? '', this.origin, { opens, clicks }) : undefined;
    const marketing = message.category === 'marketing';
    return recipients.map((recipient) => {
      const ids = { messageId: message.id, recipientId: recipient.id };
      const html = trackable
        ? personalisedHtml(
            trackable,
            (link) =>
              `${this.origin}/t/c/${this.tokens.sign({ kind: 'click', ...ids, url: link.url, linkName: link.name })}`,
            `${this.origin}/t/o/${this.tokens.sign({ kind: 'open', ...ids })}`,
          )
        : mail.html;
      const headers = marketing
        ? {
            ...withoutUnsubscribeHeaders(mail.headers),
            'List-Unsubscribe': `<${this.unsubscribeUrl(message.id, recipient.id)}>`,
            'List-Unsubscribe-Post': LIST_UNSUBSCRIBE_POST,
          }
        : mail.headers;
      return { ...mail, html, headers, recipients: [recipient.email] };
    });
  }

  unsubscribeUrl(messageId: string, recipientId: string): string {
    return `${this.origin}/u/${this.tokens.sign({ kind: 'unsubscribe', messageId, recipientId })}`;
  }
}

/** The send's own List-Unsubscribe headers give way to the platform's (accept refuses them on marketing). */
function withoutUnsubscribeHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !name.trim().toLowerCase().startsWith('list-unsubscribe'),
    ),
  );
}
