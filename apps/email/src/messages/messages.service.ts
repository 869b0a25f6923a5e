import { Injectable } from '@nestjs/common';
import { EmailErrors, VERIFICATION_METADATA_KEY } from '@switchboard/contracts';
import type {
  EmailContent,
  EmailEvent,
  EmailMessage,
  EmailRecipient,
  ListEmailMessagesRequest,
  RequestContext,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites } from '@switchboard/persistence';
import type { Page, PageRequest } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { ContentsRepository } from './contents.repository';
import { messageEvent } from './email-events';
import { EmailEventsRepository } from './email-events.repository';
import { toEventDto, toMessageDto, toRecipientDto } from './message.mapper';
import { MessagesRepository } from './messages.repository';

/** Reads of messages, their recipients, events and stored content; and cancel. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly repository: MessagesRepository,
    private readonly contents: ContentsRepository,
    private readonly emailEvents: EmailEventsRepository,
    private readonly cursors: CursorCodec,
    private readonly writes: IdempotentWrites,
  ) {}

  async get(context: RequestContext, messageId: string): Promise<EmailMessage> {
    const row = await this.repository.findMessage(workspaceOf(context), messageId);
    if (!row) throw new AppError(EmailErrors.EmailMessageNotFound);
    return toMessageDto(row);
  }

  async list(
    context: RequestContext,
    request: ListEmailMessagesRequest,
  ): Promise<Page<EmailMessage>> {
    const page = await this.repository.listMessages(workspaceOf(context), request, this.cursors);
    return { ...page, data: page.data.map(toMessageDto) };
  }

  async recipients(
    context: RequestContext,
    messageId: string,
    request: PageRequest,
  ): Promise<Page<EmailRecipient>> {
    const workspaceId = workspaceOf(context);
    const message = await this.repository.findMessage(workspaceId, messageId);
    if (!message) throw new AppError(EmailErrors.EmailMessageNotFound);
    const page = await this.repository.listRecipients(
      workspaceId,
      messageId,
      request,
      this.cursors,
    );
    return {
      ...page,
      data: page.data.map((row) => toRecipientDto(row, message.created_at)),
    };
  }

  async events(
    context: RequestContext,
    messageId: string,
    type: string | undefined,
    request: PageRequest,
  ): Promise<Page<EmailEvent>> {
    const workspaceId = workspaceOf(context);
    if (!(await this.repository.findMessage(workspaceId, messageId)))
      throw new AppError(EmailErrors.EmailMessageNotFound);
    const page = await this.repository.listEvents(
      workspaceId,
      messageId,
      type,
      request,
      this.cursors,
    );
    return { ...page, data: page.data.map(toEventDto) };
  }

  /**
   * The content as generated for delivery: 425 until the message is processed, 404 when nothing
   * was or will be generated (canceled, every recipient rejected) and for a verification's
   * passcode message, 410 after the retention.
   */
  async content(context: RequestContext, messageId: string): Promise<EmailContent> {
    const workspaceId = workspaceOf(context);
    const message = await this.repository.findMessage(workspaceId, messageId);
    if (!message) throw new AppError(EmailErrors.EmailMessageNotFound);
    const content = await this.repository.findContent(workspaceId, messageId);
    if (!content || message.status === 'canceled') throw new AppError(EmailErrors.ContentNotStored);
    // A verification's passcode is never returned (the verify service marks its messages).
    if (message.metadata && VERIFICATION_METADATA_KEY in message.metadata)
      throw new AppError(EmailErrors.ContentNotStored, {
        message: 'The content of a verification passcode message is never returned.',
      });
    if (content.purged || (content.expires_at && content.expires_at <= new Date()))
      throw new AppError(
        content.generated_at ? EmailErrors.ContentExpired : EmailErrors.ContentNotStored,
      );
    if (!content.generated_at) {
      const wait = message.scheduled_at
        ? Math.ceil((message.scheduled_at.getTime() - Date.now()) / 1000)
        : 1;
      throw new AppError(EmailErrors.ContentNotReady, {
        headers: { 'retry-after': String(Math.min(3600, Math.max(1, wait))) },
      });
    }
    const reply: EmailContent = {};
    if (content.html !== null) reply.html = content.html;
    if (content.text !== null) reply.text = content.text;
    return reply;
  }

  /** scheduled -> canceled, with the `email.canceled` event; 409 in any other state. */
  async cancel(context: RequestContext, messageId: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    // The email service's IdempotentWrites wake its outbox relay after the commit.
    return this.writes.run(context, async (manager) => {
      const message = await this.repository.findMessage(workspaceId, messageId, manager, true);
      if (!message) throw new AppError(EmailErrors.EmailMessageNotFound);
      if (!(await this.repository.cancelScheduled(manager, workspaceId, messageId)))
        throw new AppError(EmailErrors.EmailMessageNotCancelable, {
          message:
            message.status === 'scheduled'
              ? 'The message is being sent; only a scheduled message not yet sent can be canceled.'
              : `The message is ${message.status}; only a scheduled message can be canceled.`,
        });
      await this.contents.purge([messageId], manager);
      await this.emailEvents.record(manager, [
        messageEvent(
          'email.canceled',
          {
            messageId,
            workspaceId,
            tags: message.tags,
            metadata: message.metadata,
          },
          new Date(),
        ),
      ]);
      return null;
    });
  }
}
