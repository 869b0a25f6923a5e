import { Injectable } from '@nestjs/common';
import { SMS_LIMITS, SmsErrors } from '@switchboard/contracts';
import type {
  ListSmsMessagesRequest,
  RequestContext,
  SmsEvent,
  SmsMessage,
} from '@switchboard/contracts';
import { CursorCodec } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { toEventDto, toMessageDto } from './message.mapper';
import type { SmsMessageRow } from './message.mapper';
import { MessagesRepository } from './messages.repository';
import { senderSpelling } from './accept/sender-rules';

const DAY_MS = 86_400_000;

/** Reads of SMS messages and their timelines. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly repository: MessagesRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async get(context: RequestContext, messageId: string): Promise<SmsMessage> {
    const row = await this.repository.findMessage(workspaceOf(context), messageId);
    if (!retained(row)) throw new AppError(SmsErrors.SmsMessageNotFound);
    return toMessageDto(row);
  }

  /** Messages are kept 30 days: an earlier (or absent) `created_after` is raised to that bound. */
  async list(context: RequestContext, request: ListSmsMessagesRequest): Promise<Page<SmsMessage>> {
    const bound = retentionBound(new Date());
    const after = request.created_after ? new Date(request.created_after) : bound;
    const createdAfter = (after < bound ? bound : after).toISOString();
    const page = await this.repository.listMessages(
      workspaceOf(context),
      {
        ...request,
        created_after: createdAfter,
        requested_after: request.created_after,
        // Stored canonical: a number in any spelling finds its messages, and a short code (the
        // `to` of a message received on one) stays as held.
        to: request.to && senderSpelling(request.to),
        from: request.from && senderSpelling(request.from),
      },
      this.cursors,
    );
    return { ...page, data: page.data.map(toMessageDto) };
  }

  async events(
    context: RequestContext,
    messageId: string,
    type: string | undefined,
  ): Promise<{ data: SmsEvent[] }> {
    const workspaceId = workspaceOf(context);
    if (!retained(await this.repository.findMessage(workspaceId, messageId)))
      throw new AppError(SmsErrors.SmsMessageNotFound);
    const rows = await this.repository.listEvents(workspaceId, messageId, type);
    return { data: rows.map(toEventDto) };
  }
}

/**
 * The oldest instant a list reaches, rounded down to the day so that cursors made during one
 * day stay valid (the cursor is bound to the filters, not to this bound).
 */
export function retentionBound(now: Date): Date {
  const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return new Date(day - SMS_LIMITS.retentionDays * DAY_MS);
}

/**
 * Whether a message is still within the 30 days it is kept (the SDK: older ones "cannot be
 * retrieved"); the retention deletes it within ten minutes of leaving them.
 */
function retained(row: SmsMessageRow | undefined): row is SmsMessageRow {
  return row !== undefined && new Date(row.created_at) >= retentionBound(new Date());
}
