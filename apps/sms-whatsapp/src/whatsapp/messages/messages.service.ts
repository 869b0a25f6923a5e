import { Injectable } from '@nestjs/common';
import {
  phoneNumber,
  WHATSAPP_MESSAGE_LIMITS,
  WhatsAppMessagesErrors,
} from '@switchboard/contracts';
import type {
  ListWhatsAppMessagesRequest,
  RequestContext,
  WhatsAppEventList,
  WhatsAppMessage,
} from '@switchboard/contracts';
import { CursorCodec } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { InboundMediaUrls } from '../media/inbound-media-urls';
import { toWhatsAppEvent, toWhatsAppMessage } from './message.mapper';
import { WhatsAppMessagesRepository } from './messages.repository';

const DAY_MS = 86_400_000;

/** A phone number in any spelling as stored (E.164); anything else (a BSUID) as given. */
const canonical = (value: string | undefined) => value && (phoneNumber(value) ?? value);

/** Reads of WhatsApp messages and their timelines. */
@Injectable()
export class WhatsAppMessagesService {
  constructor(
    private readonly repository: WhatsAppMessagesRepository,
    private readonly cursors: CursorCodec,
    private readonly mediaUrls: InboundMediaUrls,
  ) {}

  async get(context: RequestContext, messageId: string): Promise<WhatsAppMessage> {
    const row = await this.repository.findMessage(workspaceOf(context), messageId);
    if (!row) throw new AppError(WhatsAppMessagesErrors.WhatsAppMessageNotFound);
    const [message] = await this.mediaUrls.add(context, [toWhatsAppMessage(row)]);
    return message;
  }

  /** Messages are kept 30 days: an earlier (or absent) `created_after` is raised to that bound. */
  async list(
    context: RequestContext,
    request: ListWhatsAppMessagesRequest,
  ): Promise<Page<WhatsAppMessage>> {
    const bound = retentionBound(new Date());
    const after = request.created_after ? new Date(request.created_after) : bound;
    const page = await this.repository.listMessages(
      workspaceOf(context),
      {
        ...request,
        created_after: (after < bound ? bound : after).toISOString(),
        requested_after: request.created_after,
        to: canonical(request.to),
        from: canonical(request.from),
        phone_number: canonical(request.phone_number),
      },
      this.cursors,
    );
    return { ...page, data: await this.mediaUrls.add(context, page.data.map(toWhatsAppMessage)) };
  }

  async events(
    context: RequestContext,
    messageId: string,
    type: string | undefined,
  ): Promise<WhatsAppEventList> {
    const workspaceId = workspaceOf(context);
    if (!(await this.repository.findMessage(workspaceId, messageId)))
      throw new AppError(WhatsAppMessagesErrors.WhatsAppMessageNotFound);
    const rows = await this.repository.listEvents(workspaceId, messageId, type);
    return { data: rows.map(toWhatsAppEvent) };
  }
}

/**
 * The oldest instant a list reaches, rounded down to the day so that cursors made during one
 * day stay valid (the cursor is bound to the filters, not to this bound).
 */
export function retentionBound(now: Date): Date {
  const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return new Date(day - WHATSAPP_MESSAGE_LIMITS.retentionDays * DAY_MS);
}
