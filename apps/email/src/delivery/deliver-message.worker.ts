import { Inject, Injectable } from '@nestjs/common';
import { writeOutboxEvents } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { SendingDomainsService } from '../domains';
import type { SenderDomain } from '../domains';
import { recipientEvent } from '../messages/email-events';
import type { EmailEventRecord } from '../messages/email-events';
import { recordEvents } from '../messages/email-events.repository';
import type { MessageRow, RecipientRow } from '../messages/message.mapper';
import { suppressionCreatedEvent, SuppressionsService } from '../suppressions';
import { deliveryRepository as repository } from './delivery.repository';
import type { RecipientUpdate, StoredContent } from './delivery.repository';
import { nextAttemptDelaySeconds, retryWindowOver } from './retry-policy';
import { MailTransport } from './transport';
import type { OutboundMail, RecipientResult } from './transport';

/** A message ready to send: the row, the recipients of this attempt and its generated content. */
export interface PreparedMail {
  message: MessageRow;
  recipients: RecipientRow[];
  content: StoredContent | undefined;
  /** The sending domain as processing just read it (none for the onboarding domain). */
  sender?: SenderDomain;
}

export interface DeliveryAttempt {
  message: MessageRow;
  recipients: RecipientRow[];
  results: RecipientResult[];
  /** Set when nothing could be sent: every recipient is rejected for this reason. */
  rejection?: 'generation_failure' | 'domain_unverified';
  reason?: string;
}

/** What one delivery attempt leaves to do: nothing, or the deferred recipients at a later time. */
export type AttemptOutcome =
  { done: true } | { done: false; retryAt: Date; recipientIds: string[] };

/**
 * One delivery attempt of a message to one destination (a domain's MX, or the relay): the SMTP
 * transaction outside any database transaction, then every recipient's outcome, events,
 * hard-bounce suppressions and the message's counts in one transaction.
 */
@Injectable()
export class DeliverMessageWorker {
  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    private readonly domains: SendingDomainsService,
    private readonly suppressions: SuppressionsService,
    private readonly transport: MailTransport,
  ) {}

  /**
   * Reads what to send and sends it; the results are recorded by `record`. Without ids, every
   * recipient of the message still to deliver (processed or deferred).
   */
  async attempt(
    runner: SqlRunner,
    messageId: string,
    recipientIds: string[] | undefined,
    prepared?: PreparedMail,
  ): Promise<DeliveryAttempt | undefined> {
    const { message, recipients, content } =
      prepared ?? (await this.read(runner, messageId, recipientIds)) ?? {};
    if (!message || !recipients || recipients.length === 0) return undefined;
    if (!content || content.purged)
      return {
        message,
        recipients,
        results: [],
        rejection: 'generation_failure',
        reason: 'the stored content is gone',
      };
    try {
      const mail = await this.compose(message, content, recipients, prepared?.sender);
      if (!mail)
        return {
          message,
          recipients,
          results: [],
          rejection: 'domain_unverified',
          reason: 'the sending domain is no longer verified',
        };
      return { message, recipients, results: await this.transport.deliver(mail) };
    } catch (err) {
      // The message cannot be built (a broken DKIM key, say): retrying would fail the same way.
      const reason = `generation failure: ${(err as Error).message}`.slice(0, 500);
      return { message, recipients, results: [], rejection: 'generation_failure', reason };
    }
  }

  /** What a retry or a fanned-out job reads again: processing hands it over otherwise. */
  private async read(
    runner: SqlRunner,
    messageId: string,
    recipientIds: string[] | undefined,
  ): Promise<PreparedMail | undefined> {
    const message = await repository.message(runner, messageId);
    if (!message) return undefined;
    const recipients = await repository.recipients(
      runner,
      messageId,
      ['processed', 'deferred'],
      recipientIds,
    );
    return { message, recipients, content: await repository.content(runner, messageId) };
  }

  /** Whether the transport is closing (process shutdown): results then say nothing about mail. */
  get stopping(): boolean {
    return this.transport.isClosing;
  }

  /** Records an attempt's results in the caller's transaction; says whether retries remain. */
  async record(runner: SqlRunner, attempt: DeliveryAttempt): Promise<AttemptOutcome> {
    const { message, recipients, results, rejection, reason } = attempt;
    // Under the message's row lock, so concurrent attempts of one message recount in turn.
    await repository.lockMessage(runner, message.id);
    const now = new Date();
    const byEmail = new Map(results.map((result) => [result.recipient.toLowerCase(), result]));
    const subject = {
      messageId: message.id,
      workspaceId: message.workspace_id,
      tags: message.tags,
      metadata: message.metadata,
    };
    const updates: RecipientUpdate[] = [];
    const events: EmailEventRecord[] = [];
    const hardBounces: Array<{ email: string; sourceEmailId: string; sourceRecipientId: string }> =
      [];
    const retry: RecipientRow[] = [];
    for (const recipient of recipients) {
      if (rejection) {
        updates.push({
          id: recipient.id,
          status: 'rejected',
          rejection_reason: rejection,
          bounce_description: reason,
          finished: true,
        });
        events.push(
          recipientEvent('email.rejected', subject, recipient, now, {
            rejection_reason: rejection,
          }),
        );
        continue;
      }
      const result = byEmail.get(recipient.email) ?? missingResult(recipient.email);
      const bounce = {
        bounce_type: result.bounceType ?? 'undetermined',
        bounce_code: result.code,
        bounce_description: result.response,
      };
      if (result.outcome === 'delivered') {
        updates.push({ id: recipient.id, status: 'delivered', delivered: true, finished: true });
        events.push(recipientEvent('email.delivered', subject, recipient, now));
      } else if (result.outcome === 'bounced' || this.givesUp(recipient, now)) {
        const final =
          result.outcome === 'bounced'
            ? bounce
            : {
                ...bounce,
                bounce_type: 'soft' as const,
                bounce_description: `gave up after ${this.config.EMAIL_RETRY_FOR_MINUTES} minutes of deferrals; last reply: ${result.response}`,
              };
        updates.push({ id: recipient.id, status: 'bounced', ...final, finished: true });
        events.push(
          recipientEvent('email.bounced', subject, recipient, now, {
            ...final,
            bounce_class: null,
            sending_ip: null,
          } as never),
        );
        if (final.bounce_type === 'hard')
          hardBounces.push({
            email: recipient.email,
            sourceEmailId: message.id,
            sourceRecipientId: recipient.id,
          });
      } else {
        updates.push({ id: recipient.id, status: 'deferred', ...bounce, deferred: true });
        events.push(
          recipientEvent('email.deferred', subject, recipient, now, {
            ...bounce,
            bounce_class: null,
            defer_reason: result.response,
            sending_ip: null,
          } as never),
        );
        retry.push(recipient);
      }
    }
    await repository.updateRecipients(runner, message.id, updates);
    await recordEvents(runner, events);
    if (hardBounces.length) {
      const created = await this.suppressions.recordBounces(
        runner,
        message.workspace_id,
        hardBounces,
      );
      await writeOutboxEvents(runner, 'email', created.map(suppressionCreatedEvent));
    }
    await repository.recount(runner, message);
    if (retry.length === 0) return { done: true };
    const nextAttempt = Math.max(...retry.map((recipient) => recipient.attempts + 1));
    const delay = nextAttemptDelaySeconds(nextAttempt, this.config.EMAIL_RETRY_BASE_SECONDS);
    return {
      done: false,
      retryAt: new Date(now.getTime() + delay * 1000),
      recipientIds: retry.map((recipient) => recipient.id),
    };
  }

  private givesUp(recipient: RecipientRow, now: Date): boolean {
    return (
      recipient.first_deferred_at !== null &&
      retryWindowOver(recipient.first_deferred_at, now, this.config.EMAIL_RETRY_FOR_MINUTES)
    );
  }

  /** The mail for these recipients; undefined when the sending domain is gone or unverified. */
  private async compose(
    message: MessageRow,
    content: StoredContent,
    recipients: RecipientRow[],
    known?: SenderDomain,
  ): Promise<OutboundMail | undefined> {
    let dkim: OutboundMail['dkim'];
    let returnPath = message.sender_domain;
    if (!message.onboarding) {
      const sender =
        known ??
        (await this.domains.sendersFor(message.workspace_id, [message.sender_domain])).get(
          message.sender_domain,
        );
      if (!sender?.verified) return undefined;
      dkim = {
        domainName: sender.domain,
        keySelector: sender.dkim.selector,
        privateKey: sender.dkim.privateKey,
      };
      returnPath = sender.returnPath;
    }
    return {
      messageId: `${message.id}@${message.sender_domain}`,
      from: address(message.from_email, message.from_name),
      to: message.to_addresses,
      cc: message.cc_addresses,
      replyTo: message.reply_to,
      subject: message.subject,
      html: content.html ?? undefined,
      text: content.text ?? undefined,
      headers: message.headers,
      attachments: content.attachments.map((attachment) => ({
        filename: attachment.filename,
        content: attachment.content,
        contentType: attachment.content_type,
        contentId: attachment.content_id,
      })),
      envelopeFrom: `bounces@${returnPath}`,
      recipients: recipients.map((recipient) => recipient.email),
      dkim,
    };
  }
}

function address(email: string, name: string | null) {
  return name ? { email, name } : { email };
}

/** The transport answers for every recipient; should one be missing, retrying is the safe side. */
function missingResult(recipient: string): RecipientResult {
  return {
    recipient,
    outcome: 'deferred',
    code: null,
    response: 'no result from the delivery attempt',
    bounceType: 'undetermined',
  };
}
