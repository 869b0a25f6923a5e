import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeQueue } from '@switchboard/background';
import { CommonErrors, WhatsAppGraphErrors, WhatsAppTemplatesErrors } from '@switchboard/contracts';
import type {
  RequestContext,
  SyncWhatsAppTemplatesReply,
  SyncWhatsAppTemplatesRequest,
} from '@switchboard/contracts';
import { IdempotentWrites, pgPoolOf, poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { languageStatusOfEvent } from './template-states';
import { TEMPLATE_SYNC_QUEUE, TemplateSyncRepository } from './template-sync.repository';

/** Meta's `message_template_status_update` webhook value. */
export interface TemplateStatusUpdate {
  event: string;
  message_template_id: number | string;
  message_template_name?: string;
  message_template_language?: string;
  reason?: string | null;
  other_info?: { title?: string; description?: string };
}

/**
 * Asking for template syncs (the workspace API's `sync-templates`; the runner does them) and
 * applying Meta's template status webhooks to the synced copies.
 */
@Injectable()
export class TemplateSyncService {
  private readonly reads: SqlRunner;

  constructor(
    @InjectDataSource('sms_whatsapp') private readonly dataSource: DataSource,
    private readonly repository: TemplateSyncRepository,
    private readonly writes: IdempotentWrites,
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
  ) {
    this.reads = poolRunner(dataSource);
  }

  async requestSync(
    context: RequestContext,
    input: SyncWhatsAppTemplatesRequest,
  ): Promise<SyncWhatsAppTemplatesReply> {
    const workspaceId = workspaceOf(context);
    // As the connectors and channel groups answer another workspace's id in the path.
    if (input.workspace_id !== workspaceId) throw new AppError(CommonErrors.WorkspaceMismatch);
    const accountId = await this.repository.channelGroupAccount(
      this.reads,
      workspaceId,
      input.channel_group_id,
    );
    if (accountId === undefined)
      throw new AppError(WhatsAppTemplatesErrors.ChannelGroupNotFound, {
        param: 'channel_group_id',
      });
    if (accountId === null)
      throw new AppError(WhatsAppTemplatesErrors.ChannelGroupNotWhatsApp, {
        param: 'channel_group_id',
      });
    // A deployment without a token could never read Meta: refused rather than accepted in vain.
    if (!this.config.WHATSAPP_ACCESS_TOKEN)
      throw new AppError(WhatsAppGraphErrors.WhatsAppNotConfigured);
    const reply = await this.writes.run(context, async (manager) => {
      await this.repository.enqueue(manager, [accountId]);
      return {
        status: 'accepted' as const,
        message: 'The templates of the channel group’s WhatsApp Business Account are being synced.',
      };
    });
    wakeQueue(pgPoolOf(this.dataSource), 'sms_whatsapp', TEMPLATE_SYNC_QUEUE);
    return reply;
  }

  /**
   * Asks for a sync of these accounts in the caller's transaction (connecting a number calls it
   * for the account it connected, so its templates arrive without waiting for the periodic sync);
   * the caller wakes the queue after its commit (`wakeQueue`, TEMPLATE_SYNC_QUEUE).
   */
  enqueueSyncs(manager: SqlRunner, businessAccountIds: readonly string[]): Promise<void> {
    return this.repository.enqueue(manager, businessAccountIds);
  }

  /** Wakes the sync workers after a commit that enqueued syncs (`enqueueSyncs`). */
  wakeSyncs(): void {
    wakeQueue(pgPoolOf(this.dataSource), 'sms_whatsapp', TEMPLATE_SYNC_QUEUE);
  }

  /**
   * Applies one `message_template_status_update` in the caller's transaction (the webhook
   * inbox's): the language's status on the template's live version and the template's status.
   * A Meta template not synced yet asks for a sync of its account, which brings it with its
   * status. The caller wakes the queue after its commit (`wakeQueue`, TEMPLATE_SYNC_QUEUE) or
   * leaves it to the workers' timer.
   */
  async applyTemplateStatusUpdate(
    manager: SqlRunner,
    wabaId: string,
    value: Record<string, unknown>,
  ): Promise<void> {
    const update = value as Partial<TemplateStatusUpdate>;
    const status = languageStatusOfEvent(typeof update.event === 'string' ? update.event : '');
    const metaId = update.message_template_id;
    if (status === undefined || (typeof metaId !== 'string' && typeof metaId !== 'number')) return;
    const reason = typeof update.reason === 'string' ? update.reason.trim() : '';
    const enumLike = /^[A-Z_]+$/.test(reason) && reason !== 'NONE';
    const rejection =
      status === 'rejected'
        ? {
            ...(enumLike ? { category: reason.toLowerCase() } : {}),
            reason: enumLike || reason === '' || reason === 'NONE' ? null : reason,
            recommendation: update.other_info?.description ?? null,
          }
        : null;
    const applied = await this.repository.applyStatus(
      manager,
      wabaId,
      String(metaId),
      status,
      rejection,
    );
    if (!applied.found && applied.accountId)
      await this.repository.enqueue(manager, [applied.accountId]);
  }
}
