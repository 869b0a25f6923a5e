import { Inject, Injectable } from '@nestjs/common';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import type { EmailRejectionReason } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { SendingDomainsService } from '../domains';
import { recipientEvent } from '../messages/email-events';
import type { EmailEventRecord } from '../messages/email-events';
import { recordEvents } from '../messages/email-events.repository';
import { SuppressionsService } from '../suppressions';
import { deliveryRepository as repository } from './delivery.repository';
import type { RecipientUpdate, StoredContent } from './delivery.repository';
import type { PreparedMail } from './deliver-message.worker';
import type { RecipientRow } from '../messages/message.mapper';
import { MailTransport } from './transport';
import { renderContent } from './render';

export const DELIVER_QUEUE = 'email.deliver';

/** What processing decided, and what it already holds for an immediate delivery attempt. */
export interface ProcessedMessage {
  /** Recipient ids per destination; empty when every recipient was rejected. */
  outgoing: Map<string, string[]>;
  /** The message, its recipients to send to and the generated content (none when nothing goes out). */
  prepared?: PreparedMail;
}

/**
 * Processing a message (at once, or at its `scheduled_at`): the rules applied after acceptance
 * (sender domain still verified, onboarding recipients, suppressions) and the content
 * generated, in the job's transaction. It answers which recipients go to which destination;
 * the runner delivers a single destination at once and fans several out as delivery jobs.
 */
@Injectable()
export class ProcessMessageWorker {
  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    private readonly domains: SendingDomainsService,
    private readonly suppressions: SuppressionsService,
    private readonly transport: MailTransport,
  ) {}

  /**
   * Runs inside the job's transaction. Returns the recipient ids per destination (empty when
   * every recipient was rejected), or undefined when the message was processed before (a run
   * that crashed after this step) or is gone or canceled.
   */
  async process(runner: SqlRunner, messageId: string): Promise<ProcessedMessage | undefined> {
    const message = await repository.lockMessage(runner, messageId);
    if (!message || message.canceled_at || message.processed_at) return undefined;
    const recipients = await repository.recipients(runner, messageId, ['accepted']);
    // The onboarding domain always may send; an own domain while it exists and is verified.
    const sender = message.onboarding
      ? undefined
      : (await this.domains.sendersFor(message.workspace_id, [message.sender_domain], runner)).get(
          message.sender_domain,
        );
    const domainProblem = !message.onboarding && !sender?.verified;
    const suppressed = await this.suppressions.suppressedAmong(
      runner,
      message.workspace_id,
      recipients.map((recipient) => recipient.email),
      message.category,
    );
    const now = new Date();
    const subject = {
      messageId,
      workspaceId: message.workspace_id,
      tags: message.tags,
      metadata: message.metadata,
    };
    const updates: RecipientUpdate[] = [];
    const events: EmailEventRecord[] = [];
    const outgoing = new Map<string, string[]>();
    const sending: RecipientRow[] = [];
    for (const recipient of recipients) {
      // A scheduled send announced itself once (`email.scheduled`); its recipients are accepted now.
      if (message.scheduled_at)
        events.push(recipientEvent('email.accepted', subject, recipient, now));
      const reason: EmailRejectionReason | undefined = domainProblem
        ? 'domain_unverified'
        : !recipient.allowed
          ? 'recipient_not_allowed'
          : suppressed.has(recipient.email)
            ? 'recipient_suppressed'
            : undefined;
      if (reason) {
        updates.push({
          id: recipient.id,
          status: 'rejected',
          rejection_reason: reason,
          finished: true,
        });
        events.push(
          recipientEvent('email.rejected', subject, recipient, now, { rejection_reason: reason }),
        );
        continue;
      }
      updates.push({ id: recipient.id, status: 'processed', processed: true });
      sending.push(recipient);
      events.push(recipientEvent('email.processed', subject, recipient, now));
      const destination = this.transport.destinationOf(recipient.email);
      outgoing.set(destination, [...(outgoing.get(destination) ?? []), recipient.id]);
    }
    await repository.updateRecipients(runner, messageId, updates);
    await recordEvents(runner, events);
    let generated: StoredContent | undefined;
    if (outgoing.size > 0) {
      const content = await repository.content(runner, messageId);
      const rendered = renderContent(
        { subject: message.subject, html: content?.html ?? null, text: content?.text ?? null },
        message.parameters,
      );
      await repository.markGenerated(
        runner,
        messageId,
        rendered,
        this.config.EMAIL_CONTENT_RETENTION_DAYS,
        this.config.EMAIL_RETRY_FOR_MINUTES,
      );
      if (content)
        generated = { ...content, html: rendered.html, text: rendered.text, purged: false };
      message.subject = rendered.subject;
    } else {
      // Every recipient was rejected: nothing is generated, and nothing needs the bodies.
      await runner.query(
        `UPDATE email.contents SET html = NULL, text = NULL, attachments = '[]', purged = true
         WHERE message_id = $1`,
        [messageId],
      );
      await runner.query('UPDATE email.messages SET processed_at = now() WHERE id = $1', [
        messageId,
      ]);
    }
    // One destination is delivered right after this transaction, and that attempt recounts:
    // counting here too would only show `processed` for the length of an SMTP conversation.
    if (outgoing.size !== 1) await repository.recount(runner, { ...message, canceled_at: null });
    return {
      outgoing,
      prepared: generated && { message, recipients: sending, content: generated, sender },
    };
  }
}
