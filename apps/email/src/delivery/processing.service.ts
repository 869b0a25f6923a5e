import { Inject, Injectable } from '@nestjs/common';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import type { EmailRejectionReason } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { SendingDomainsService } from '../domains';
import type { SenderDomain } from '../domains';
import { ContentsRepository, EmailEventsRepository, recipientEvent } from '../messages';
import type { EmailEventRecord, MessageRow, RecipientRow } from '../messages';
import { SuppressionsService } from '../suppressions';
import { DeliveryRepository } from './delivery.repository';
import type { RecipientUpdate } from './delivery.repository';
import type { PreparedMail } from './delivery.service';
import { MAIL_TRANSPORT } from './transport';
import type { MailTransport } from './transport';
import { groupBy } from './group-by';
import { renderContent } from './render';

/** What processing decided, and what it already holds for an immediate delivery attempt. */
export interface ProcessedMessage {
  /** Recipient ids per destination; empty when every recipient was rejected. */
  outgoing: Map<string, string[]>;
  /** The message, its recipients to send to and the generated content (none when nothing goes out). */
  prepared?: PreparedMail;
}

/**
 * Processing messages (at once, or at their `scheduled_at`), a claimed batch at a time: the
 * rules applied after acceptance (sender domain still verified, onboarding recipients,
 * suppressions and preferences) and the content generated, in the jobs' transaction, with a fixed number of
 * statements whatever the batch size. It answers which recipients of each message go to which
 * destination; `DeliveryRunner`, the queue worker calling it, delivers a single destination at
 * once and fans several out.
 */
@Injectable()
export class ProcessingService {
  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    private readonly domains: SendingDomainsService,
    private readonly suppressions: SuppressionsService,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
    private readonly repository: DeliveryRepository,
    private readonly contents: ContentsRepository,
    private readonly emailEvents: EmailEventsRepository,
  ) {}

  /**
   * Runs inside the jobs' transaction. Answers, per message processed now, its recipient ids per
   * destination (empty when every recipient was rejected); a message processed before (a run
   * that crashed after this step), gone or canceled is absent.
   */
  async process(runner: SqlRunner, messageIds: string[]): Promise<Map<string, ProcessedMessage>> {
    const messages = (await this.repository.lockMessages(runner, messageIds)).filter(
      (message) => !message.canceled_at && !message.processed_at,
    );
    const processed = new Map<string, ProcessedMessage>();
    if (messages.length === 0) return processed;
    const ids = messages.map((message) => message.id);
    const recipientsOf = groupBy(
      await this.repository.recipients(runner, ids, ['accepted']),
      (recipient) => recipient.message_id,
    );
    const senders = await this.sendersOf(runner, messages);
    const suppressed = await this.suppressedOf(runner, messages, recipientsOf);
    const contents = await this.repository.contents(runner, ids);
    const now = new Date();
    const updates: RecipientUpdate[] = [];
    const events: EmailEventRecord[] = [];
    const generated: Array<{
      message_id: string;
      subject: string;
      html: string | null;
      text: string | null;
    }> = [];
    const unsent: string[] = [];
    const recount: MessageRow[] = [];
    for (const message of messages) {
      const sender = senders.get(`${message.workspace_id} ${message.sender_domain}`);
      // The onboarding domain always may send; an own domain while it exists and is verified.
      const domainProblem = !message.onboarding && !sender?.verified;
      const subject = {
        messageId: message.id,
        workspaceId: message.workspace_id,
        tags: message.tags,
        metadata: message.metadata,
        broadcastId: message.broadcast_id,
      };
      const outgoing = new Map<string, string[]>();
      const sending: RecipientRow[] = [];
      for (const recipient of recipientsOf.get(message.id) ?? []) {
        // A scheduled send announced itself once (`email.scheduled`); its recipients are accepted now.
        if (message.scheduled_at)
          events.push(recipientEvent('email.accepted', subject, recipient, now));
        const reason: EmailRejectionReason | undefined = domainProblem
          ? 'domain_unverified'
          : !recipient.allowed
            ? 'recipient_not_allowed'
            : suppressed.has(`${message.id} ${recipient.email}`)
              ? 'recipient_suppressed'
              : undefined;
        if (reason) {
          updates.push({
            id: recipient.id,
            message_id: message.id,
            status: 'rejected',
            rejection_reason: reason,
            finished: true,
          });
          events.push(
            recipientEvent('email.rejected', subject, recipient, now, { rejection_reason: reason }),
          );
          continue;
        }
        updates.push({
          id: recipient.id,
          message_id: message.id,
          status: 'processed',
          processed: true,
        });
        sending.push(recipient);
        events.push(recipientEvent('email.processed', subject, recipient, now));
        const destination = this.transport.destinationOf(recipient.email);
        outgoing.set(destination, [...(outgoing.get(destination) ?? []), recipient.id]);
      }
      // One destination is delivered right after this transaction, and that attempt recounts:
      // counting here too would only show `processed` for the length of an SMTP conversation.
      if (outgoing.size !== 1) recount.push(message);
      const content = contents.get(message.id);
      if (outgoing.size === 0) {
        // Every recipient was rejected: nothing is generated, and nothing needs the bodies.
        unsent.push(message.id);
        processed.set(message.id, { outgoing });
        continue;
      }
      const stored = {
        subject: message.subject,
        html: content?.html ?? null,
        text: content?.text ?? null,
      };
      // A template's content was rendered at accept: its parameters are kept for reads only,
      // and a value holding `{{ x }}` must not be filled in a second time.
      const rendered = message.template_version_id
        ? stored
        : renderContent(stored, message.parameters);
      generated.push({ message_id: message.id, ...rendered });
      message.subject = rendered.subject;
      processed.set(message.id, {
        outgoing,
        prepared: content && {
          message,
          recipients: sending,
          content: { ...content, html: rendered.html, text: rendered.text, purged: false },
          sender,
        },
      });
    }
    await this.repository.updateRecipients(runner, updates);
    await this.emailEvents.record(runner, events);
    await this.repository.markGenerated(
      runner,
      generated,
      this.config.EMAIL_CONTENT_RETENTION_DAYS,
      this.config.EMAIL_RETRY_FOR_MINUTES,
    );
    // Nothing is generated for them, and nothing needs their bodies any more.
    await this.contents.purge(unsent, runner);
    await this.repository.markProcessed(runner, unsent);
    await this.repository.recount(runner, recount);
    return processed;
  }

  /** The sending domains of the batch's own-domain messages, by "workspace domain". */
  private async sendersOf(
    runner: SqlRunner,
    messages: MessageRow[],
  ): Promise<Map<string, SenderDomain>> {
    const senders = new Map<string, SenderDomain>();
    const byWorkspace = groupBy(
      messages.filter((message) => !message.onboarding),
      (message) => message.workspace_id,
    );
    for (const [workspaceId, own] of byWorkspace) {
      const found = await this.domains.sendersFor(
        workspaceId,
        own.map((message) => message.sender_domain),
        runner,
      );
      for (const [domain, sender] of found) senders.set(`${workspaceId} ${domain}`, sender);
    }
    return senders;
  }

  /**
   * Suppressed or opted-out recipients (the preference projection, ADR 14) as "message-id email",
   * one query per workspace and category.
   */
  private async suppressedOf(
    runner: SqlRunner,
    messages: MessageRow[],
    recipientsOf: Map<string, RecipientRow[]>,
  ): Promise<Set<string>> {
    const suppressed = new Set<string>();
    const groups = groupBy(messages, (message) => `${message.workspace_id} ${message.category}`);
    for (const group of groups.values()) {
      const { workspace_id: workspaceId, category } = group[0];
      const emails = group.flatMap((message) =>
        (recipientsOf.get(message.id) ?? []).map((recipient) => recipient.email),
      );
      const hits = await this.suppressions.suppressedAmong(runner, workspaceId, emails, category, {
        preferences: this.config.PREFERENCES_ENFORCEMENT,
      });
      if (hits.size === 0) continue;
      for (const message of group)
        for (const recipient of recipientsOf.get(message.id) ?? [])
          if (hits.has(recipient.email)) suppressed.add(`${message.id} ${recipient.email}`);
    }
    return suppressed;
  }
}
