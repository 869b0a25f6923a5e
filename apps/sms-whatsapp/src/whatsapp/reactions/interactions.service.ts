import { Injectable } from '@nestjs/common';
import { WhatsAppInteractionsErrors, WhatsAppMessagesErrors } from '@switchboard/contracts';
import type {
  ErrorCode,
  ListWhatsAppReactionEventsRequest,
  RequestContext,
  WhatsAppMarkReadRequest,
  WhatsAppReactionAccepted,
  WhatsAppReactionEvent,
  WhatsAppReadReceipt,
  WhatsAppSetReactionRequest,
} from '@switchboard/contracts';
import { CursorCodec, newId } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { InteractionsRepository } from './interactions.repository';
import type { InteractionTarget, ReactionEventRow } from './interactions.repository';
import { isOneEmoji } from './reaction-emoji';

const Errors = WhatsAppInteractionsErrors;
/** Provider ids (wamids) are kept 15 days: past that a message cannot be addressed at Meta. */
const PROVIDER_ID_RETENTION_MS = 15 * 86_400_000;

/**
 * The workspace's side of an inbound conversation: reactions on the contact's messages and read
 * receipts. Both are accepted here (the 202) and carried to Meta by the interactions queue.
 */
@Injectable()
export class InteractionsService {
  constructor(
    private readonly repository: InteractionsRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async markRead(
    context: RequestContext,
    request: WhatsAppMarkReadRequest,
  ): Promise<WhatsAppReadReceipt> {
    const typingIndicator = request.typing_indicator ?? false;
    if (typeof typingIndicator !== 'boolean')
      throw AppError.validation([{ param: 'typing_indicator', message: 'must be a boolean' }]);
    const target = await this.addressable(
      context,
      request.message_id,
      Errors.WhatsAppReadReceiptNotInbound,
    );
    await this.repository.acceptReadReceipt(target.id, typingIndicator);
    return { typing_indicator: typingIndicator };
  }

  async setReaction(
    context: RequestContext,
    request: WhatsAppSetReactionRequest,
  ): Promise<WhatsAppReactionAccepted> {
    const emoji: unknown = request.emoji;
    if (typeof emoji !== 'string' || !isOneEmoji(emoji))
      throw new AppError(Errors.WhatsAppReactionNotOneEmoji, {
        details: [{ param: 'emoji', message: 'must be exactly one emoji' }],
      });
    const target = await this.addressable(
      context,
      request.message_id,
      Errors.WhatsAppReactionOnOutboundMessage,
    );
    const id = newId('wre');
    await this.repository.acceptReaction(workspaceOf(context), target, { id, emoji });
    return { id, emoji };
  }

  /** Idempotent: with no reaction of ours on the message, nothing is logged or sent. */
  async removeReaction(context: RequestContext, messageId: string): Promise<null> {
    const target = await this.addressable(
      context,
      messageId,
      Errors.WhatsAppReactionOnOutboundMessage,
    );
    if (target.has_own_reaction)
      await this.repository.acceptReaction(workspaceOf(context), target, {
        id: newId('wre'),
        emoji: null,
      });
    return null;
  }

  async listReactionEvents(
    context: RequestContext,
    request: ListWhatsAppReactionEventsRequest,
  ): Promise<Page<WhatsAppReactionEvent>> {
    const workspaceId = workspaceOf(context);
    if (!(await this.repository.target(workspaceId, request.message_id)))
      throw new AppError(WhatsAppMessagesErrors.WhatsAppMessageNotFound);
    const page = await this.repository.listEvents(
      workspaceId,
      request.message_id,
      request,
      this.cursors,
    );
    return { ...page, data: page.data.map(toReactionEvent) };
  }

  /** An inbound message of the workspace that Meta can still be told about. */
  private async addressable(
    context: RequestContext,
    messageId: string,
    outboundError: ErrorCode,
  ): Promise<InteractionTarget> {
    const target = await this.repository.target(workspaceOf(context), messageId);
    if (!target) throw new AppError(WhatsAppMessagesErrors.WhatsAppMessageNotFound);
    if (target.direction !== 'inbound') throw new AppError(outboundError);
    const age = Date.now() - new Date(target.created_at).getTime();
    if (!target.provider_message_id || age > PROVIDER_ID_RETENTION_MS)
      throw new AppError(Errors.WhatsAppProviderIdExpired);
    return target;
  }
}

export function toReactionEvent(row: ReactionEventRow): WhatsAppReactionEvent {
  return {
    id: row.id,
    emoji: row.emoji,
    status: row.status,
    from: row.from_address,
    ...(row.error ? { error: row.error } : {}),
    occurred_at: new Date(row.occurred_at).toISOString(),
  };
}
