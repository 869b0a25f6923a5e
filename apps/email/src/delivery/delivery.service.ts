import { Inject, Injectable } from '@nestjs/common';
import { writeOutboxEvents } from '@switchboard/background';
import type { SqlRunner } from '@switchboard/persistence';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { SendingDomainsService } from '../domains';
import type { SenderDomain } from '../domains';
import { EmailEventsRepository, recipientEvent } from '../messages';
import type { EmailEventRecord, MessageRow, RecipientRow } from '../messages';
import { suppressionCreatedEvent, SuppressionsService } from '../suppressions';
import { TrackingLinks } from '../tracking/tracking-links';
import { DeliveryRepository } from './delivery.repository';
import type { RecipientUpdate, StoredContent } from './delivery.repository';
import { groupBy } from './group-by';
import { nextAttemptDelaySeconds, retryWindowOver } from './retry-policy';
import { MAIL_TRANSPORT } from './transport';
import type { MailTransport, OutboundMail, RecipientResult } from './transport';

/** A message ready to send: the row, the recipients of this attempt and its generated content. */
export interface PreparedMail {
  message: MessageRow;
  recipients: RecipientRow[];
  content: StoredContent | undefined;
  /** The sending domain as processing just read it (none for the onboarding domain). */
  sender?: SenderDomain;
  /** Deferred recipients suppressed or opted out since processing: not sent to again. */
  refused?: RecipientRow[];
}

export interface DeliveryAttempt {
  message: MessageRow;
  recipients: RecipientRow[];
  results: RecipientResult[];
  /** Recorded `rejected` `recipient_suppressed`, never attempted (`PreparedMail.refused`). */
  refused?: RecipientRow[];
  /** Set when nothing could be sent: every recipient is rejected for this reason. */
  rejection?: 'generation_failure' | 'domain_unverified';
  reason?: string;
}

interface HardBounce {
  workspaceId: string;
  email: string;
  sourceEmailId: string;
  sourceRecipientId: string;
}

/** What one delivery attempt leaves to do: nothing, or the deferred recipients at a later time. */
export type AttemptOutcome =
  { done: true } | { done: false; retryAt: Date; recipientIds: string[] };

/**
 * Delivery attempts of messages, each to one destination (a domain's MX, or the relay), and the
 * rules of their outcomes (retries, giving up, hard-bounce suppressions): the attempt through
 * the mail transport outside any database transaction, then, for the attempts that finished
 * together, every recipient's outcome, events, suppressions and the messages' counts in the
 * caller's transaction. The queue worker that calls it is `DeliveryRunner`.
 */
@Injectable()
export class DeliveryService {
  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    private readonly domains: SendingDomainsService,
    private readonly suppressions: SuppressionsService,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
    private readonly repository: DeliveryRepository,
    private readonly emailEvents: EmailEventsRepository,
    private readonly links: TrackingLinks,
  ) {}

  /** Sends a prepared mail; the results are recorded by `record`. */
  async attempt(prepared: PreparedMail): Promise<DeliveryAttempt> {
    const attempt = await this.attemptSending(prepared);
    return prepared.refused?.length ? { ...attempt, refused: prepared.refused } : attempt;
  }

  private async attemptSending(prepared: PreparedMail): Promise<DeliveryAttempt> {
    const { message, recipients, content } = prepared;
    if (recipients.length === 0) return { message, recipients, results: [] };
    if (!content || content.purged)
      return {
        message,
        recipients,
        results: [],
        rejection: 'generation_failure',
        reason: 'the stored content is gone',
      };
    try {
      const mail = await this.compose(message, content, recipients, prepared.sender);
      if (!mail)
        return {
          message,
          recipients,
          results: [],
          rejection: 'domain_unverified',
          reason: 'the sending domain is no longer verified',
        };
      return { message, recipients, results: await this.deliver(mail, message, recipients) };
    } catch (err) {
      // The message cannot be built (a broken DKIM key, say): retrying would fail the same way.
      const reason = `generation failure: ${(err as Error).message}`.slice(0, 500);
      return { message, recipients, results: [], rejection: 'generation_failure', reason };
    }
  }

  /**
   * What retries and fanned-out jobs send (processing hands the rest over), for a batch in three
   * queries: per request, the message, its recipients still to deliver (processed or deferred;
   * among `recipientIds` when given) and its content; undefined when nothing is left to send.
   */
  async read(
    runner: SqlRunner,
    requests: Array<{ messageId: string; recipientIds?: string[] }>,
  ): Promise<Array<PreparedMail | undefined>> {
    if (requests.length === 0) return [];
    const ids = [...new Set(requests.map((request) => request.messageId))];
    const messages = new Map(
      (await this.repository.messages(runner, ids)).map((message) => [message.id, message]),
    );
    const recipientsOf = groupBy(
      await this.repository.recipients(runner, ids, ['processed', 'deferred']),
      (recipient) => recipient.message_id,
    );
    const contents = await this.repository.contents(runner, ids);
    const prepared = requests.map(({ messageId, recipientIds }) => {
      const message = messages.get(messageId);
      const wanted = recipientIds && new Set(recipientIds);
      const recipients = (recipientsOf.get(messageId) ?? []).filter(
        (recipient) => !wanted || wanted.has(recipient.id),
      );
      if (!message || recipients.length === 0) return undefined;
      return { message, recipients, content: contents.get(messageId) };
    });
    await this.refuseOptedOut(runner, prepared);
    return prepared;
  }

  /**
   * Processing checked the recipients' suppressions and preferences; a deferred one is sent to
   * again for up to EMAIL_RETRY_FOR_MINUTES after, so a revoke or a suppression since then must
   * stop it too (ADR 14). One query per workspace and category of the batch.
   */
  private async refuseOptedOut(
    runner: SqlRunner,
    prepared: Array<PreparedMail | undefined>,
  ): Promise<void> {
    const retried = prepared.filter(
      (mail): mail is PreparedMail =>
        mail !== undefined && mail.recipients.some((r) => r.status === 'deferred'),
    );
    const groups = groupBy(
      retried,
      (mail) => `${mail.message.workspace_id} ${mail.message.category}`,
    );
    for (const group of groups.values()) {
      const { workspace_id: workspaceId, category } = group[0].message;
      const emails = group.flatMap((mail) =>
        mail.recipients.filter((r) => r.status === 'deferred').map((r) => r.email),
      );
      const stopped = await this.suppressions.suppressedAmong(
        runner,
        workspaceId,
        emails,
        category,
        {
          preferences: this.config.PREFERENCES_ENFORCEMENT,
        },
      );
      if (stopped.size === 0) continue;
      for (const mail of group) {
        const refused = mail.recipients.filter(
          (r) => r.status === 'deferred' && stopped.has(r.email),
        );
        if (refused.length === 0) continue;
        mail.refused = refused;
        mail.recipients = mail.recipients.filter((r) => !refused.includes(r));
      }
    }
  }

  /**
   * One transaction for the destination, or, when each recipient's copy differs (tracking,
   * marketing mail's List-Unsubscribe), one per recipient, all at once.
   */
  private async deliver(
    mail: OutboundMail,
    message: MessageRow,
    recipients: RecipientRow[],
  ): Promise<RecipientResult[]> {
    if (!this.links.personalises(message)) return this.transport.deliver(mail);
    const copies = this.links.copiesFor(mail, message, recipients);
    return (await Promise.all(copies.map((copy) => this.transport.deliver(copy)))).flat();
  }

  /** Whether the transport is closing (process shutdown): results then say nothing about mail. */
  get stopping(): boolean {
    return this.transport.isClosing;
  }

  /**
   * Records attempts' results in the caller's transaction, under the messages' row locks (so
   * concurrent attempts of one message recount in turn), with a fixed number of statements
   * whatever their number. Answers, per attempt, whether retries remain.
   */
  async record(runner: SqlRunner, attempts: DeliveryAttempt[]): Promise<AttemptOutcome[]> {
    if (attempts.length === 0) return [];
    const locked = await this.repository.lockMessages(runner, [
      ...new Set(attempts.map((attempt) => attempt.message.id)),
    ]);
    const now = new Date();
    const updates: RecipientUpdate[] = [];
    const events: EmailEventRecord[] = [];
    const hardBounces: HardBounce[] = [];
    const outcomes = attempts.map((attempt) =>
      this.outcomeOf(attempt, now, { updates, events, hardBounces }),
    );
    await this.repository.updateRecipients(runner, updates);
    await this.emailEvents.record(runner, events);
    for (const [workspaceId, entries] of groupBy(hardBounces, (entry) => entry.workspaceId)) {
      const created = await this.suppressions.recordBounces(runner, workspaceId, entries);
      await writeOutboxEvents(runner, 'email', created.map(suppressionCreatedEvent));
    }
    await this.repository.recount(runner, locked);
    return outcomes;
  }

  /** One attempt's recipient updates, events and hard bounces (added to `into`), and its outcome. */
  private outcomeOf(
    attempt: DeliveryAttempt,
    now: Date,
    into: { updates: RecipientUpdate[]; events: EmailEventRecord[]; hardBounces: HardBounce[] },
  ): AttemptOutcome {
    const { message, recipients, results, rejection, reason } = attempt;
    const { updates, events, hardBounces } = into;
    const byEmail = new Map(results.map((result) => [result.recipient.toLowerCase(), result]));
    const subject = {
      messageId: message.id,
      workspaceId: message.workspace_id,
      tags: message.tags,
      metadata: message.metadata,
      broadcastId: message.broadcast_id,
    };
    for (const recipient of attempt.refused ?? []) {
      updates.push({
        id: recipient.id,
        message_id: message.id,
        status: 'rejected',
        rejection_reason: 'recipient_suppressed',
        bounce_description: 'suppressed or opted out since its last attempt',
        finished: true,
      });
      events.push(
        recipientEvent('email.rejected', subject, recipient, now, {
          rejection_reason: 'recipient_suppressed',
        }),
      );
    }
    const retry: RecipientRow[] = [];
    for (const recipient of recipients) {
      const ids = { id: recipient.id, message_id: message.id };
      if (rejection) {
        updates.push({
          ...ids,
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
        updates.push({ ...ids, status: 'delivered', delivered: true, finished: true });
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
        updates.push({ ...ids, status: 'bounced', ...final, finished: true });
        events.push(
          recipientEvent('email.bounced', subject, recipient, now, {
            ...final,
            bounce_class: null,
            sending_ip: null,
          } as never),
        );
        if (final.bounce_type === 'hard')
          hardBounces.push({
            workspaceId: message.workspace_id,
            email: recipient.email,
            sourceEmailId: message.id,
            sourceRecipientId: recipient.id,
          });
      } else {
        updates.push({ ...ids, status: 'deferred', ...bounce, deferred: true });
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
