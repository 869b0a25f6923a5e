import { Injectable } from '@nestjs/common';
import type { EmailRejectionReason } from '@switchboard/contracts';
import { enqueueJobs } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { SendingDomainsService } from '../domains';
import { recipientEvent } from '../messages/email-events';
import type { EmailEventRecord } from '../messages/email-events';
import { recordEvents } from '../messages/email-events.repository';
import type { MessageRow } from '../messages/message.mapper';
import { SuppressionsService } from '../suppressions';
import { deliveryRepository as repository } from './delivery.repository';
import type { RecipientUpdate } from './delivery.repository';
import { MailTransport } from './transport';
import { renderContent } from './render';

export const DELIVER_QUEUE = 'email.deliver';

/**
 * Processing a message (at once, or at its `scheduled_at`): the rules applied after acceptance
 * (sender domain still verified, onboarding recipients, suppressions), the content generated,
 * and one delivery job per destination, all in the job's transaction.
 */
@Injectable()
export class ProcessMessageWorker {
  constructor(
    private readonly domains: SendingDomainsService,
    private readonly suppressions: SuppressionsService,
    private readonly transport: MailTransport,
  ) {}

  /** Runs inside the job's transaction; false when there is nothing (left) to process. */
  async process(runner: SqlRunner, messageId: string, retentionDays: number): Promise<boolean> {
    const message = await repository.lockMessage(runner, messageId);
    if (!message || message.canceled_at || message.processed_at) return false;
    const recipients = await repository.recipients(runner, messageId, ['accepted']);
    const domainProblem = await this.senderProblem(message);
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
      events.push(recipientEvent('email.processed', subject, recipient, now));
      const destination = this.transport.destinationOf(recipient.email);
      outgoing.set(destination, [...(outgoing.get(destination) ?? []), recipient.id]);
    }
    await repository.updateRecipients(runner, messageId, updates);
    await recordEvents(runner, events);
    if (outgoing.size > 0) {
      const content = await repository.content(runner, messageId);
      const rendered = renderContent(
        { subject: message.subject, html: content?.html ?? null, text: content?.text ?? null },
        message.parameters,
      );
      await repository.markGenerated(runner, messageId, rendered, retentionDays);
      await enqueueJobs(
        runner,
        'email',
        [...outgoing.values()].map((ids) => ({
          queue: DELIVER_QUEUE,
          payload: { message_id: messageId, recipient_ids: ids },
        })),
      );
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
    await repository.recount(runner, { ...message, canceled_at: null });
    return true;
  }

  /** The onboarding domain always may send; an own domain must still exist and be verified. */
  private async senderProblem(message: MessageRow): Promise<boolean> {
    if (message.onboarding) return false;
    const senders = await this.domains.sendersFor(message.workspace_id, [message.sender_domain]);
    return !senders.get(message.sender_domain)?.verified;
  }
}
