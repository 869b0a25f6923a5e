import { Inject, Injectable } from '@nestjs/common';
import { EmailBroadcastErrors, EmailTemplateErrors } from '@switchboard/contracts';
import type {
  EmailBroadcastClickedLinkList,
  EmailBroadcastCounts,
  EmailBroadcastSendQuota,
  EmailEvent,
  EmailRecipient,
  EmailTemplateBroadcastSummary,
  ListEmailBroadcastEventsRequest,
  ListEmailBroadcastRecipientsRequest,
  ListTemplateBroadcastsRequest,
  RequestContext,
} from '@switchboard/contracts';
import { CursorCodec } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { toEventDto, toRecipientDto } from '../messages/message.mapper';
import { AUDIENCE_SNAPSHOTS, AudienceSnapshots } from './audience-snapshots';
import { BroadcastReadsRepository } from './broadcast-reads.repository';
import { BroadcastsRepository } from './broadcasts.repository';
import { BroadcastsService } from './broadcasts.service';
import { BroadcastRequirements } from './broadcast-requirements';

/** What a broadcast would reach and what it did: counts, quota, recipients, events, links. */
@Injectable()
export class BroadcastInsightsService {
  constructor(
    private readonly broadcasts: BroadcastsService,
    private readonly repository: BroadcastsRepository,
    private readonly reads: BroadcastReadsRepository,
    private readonly requirements: BroadcastRequirements,
    @Inject(AUDIENCE_SNAPSHOTS) private readonly audiences: AudienceSnapshots,
    private readonly cursors: CursorCodec,
  ) {}

  async counts(context: RequestContext, broadcastId: string): Promise<EmailBroadcastCounts> {
    const row = await this.withAudience(context, broadcastId);
    const counts = await this.requirements.audienceCounts(context, row, this.repository.reads);
    const sent = !['draft', 'scheduled'].includes(row.status);
    return {
      broadcast_id: row.id,
      status: row.status,
      next: sent
        ? [
            {
              kind: 'operation',
              description: 'Delivery outcomes are in the broadcast’s recipients',
              operation: 'listEmailBroadcastRecipients',
              params: { broadcast_id: row.id },
            },
          ]
        : [],
      ...counts,
    };
  }

  async sendQuota(context: RequestContext, broadcastId: string): Promise<EmailBroadcastSendQuota> {
    const row = await this.withAudience(context, broadcastId);
    const reads = this.repository.reads;
    const { sendable } = await this.requirements.audienceCounts(context, row, reads);
    return this.requirements.quota(row.workspace_id, sendable, reads);
  }

  async recipients(
    context: RequestContext,
    request: ListEmailBroadcastRecipientsRequest,
  ): Promise<Page<EmailRecipient>> {
    const row = await this.broadcasts.found(workspaceOf(context), request.broadcast_id);
    const page = pageOf(request);
    const result = await this.reads.recipients(
      row.workspace_id,
      row.id,
      request.to,
      page,
      this.cursors,
    );
    return { ...result, data: result.data.map((r) => toRecipientDto(r, r.accepted_at)) };
  }

  async events(
    context: RequestContext,
    request: ListEmailBroadcastEventsRequest,
  ): Promise<Page<EmailEvent>> {
    const row = await this.broadcasts.found(workspaceOf(context), request.broadcast_id);
    const page = pageOf(request);
    const result = await this.reads.events(
      row.workspace_id,
      row.id,
      request.type,
      page,
      this.cursors,
    );
    return { ...result, data: result.data.map(toEventDto) };
  }

  async clickedLinks(
    context: RequestContext,
    broadcastId: string,
  ): Promise<EmailBroadcastClickedLinkList> {
    const row = await this.broadcasts.found(workspaceOf(context), broadcastId);
    return this.reads.clickedLinks(row.workspace_id, row.id);
  }

  /**
   * The broadcasts that block deleting a template (scheduled or accepted), newest first. A
   * system template (`bird_` slug) is never used by a broadcast: an empty page.
   */
  async forTemplate(
    context: RequestContext,
    request: ListTemplateBroadcastsRequest,
  ): Promise<Page<EmailTemplateBroadcastSummary>> {
    const workspaceId = workspaceOf(context);
    const ref = request.template_ref;
    if (ref.startsWith('bird_'))
      return { data: [], next_cursor: null, prev_cursor: null, refresh_cursor: null };
    const templateId = await this.repository.templateIdOf(workspaceId, ref);
    if (!templateId) throw new AppError(EmailTemplateErrors.EmailTemplateNotFound);
    const page = await this.repository.listBlockingTemplate(
      workspaceId,
      templateId,
      pageOf(request),
      this.cursors,
    );
    return {
      ...page,
      data: page.data.map((row) => ({
        id: row.id,
        status: row.status,
        scheduled_at: row.scheduled_at ? row.scheduled_at.toISOString() : null,
        created_at: row.created_at.toISOString(),
      })),
    };
  }

  private async withAudience(context: RequestContext, broadcastId: string) {
    const row = await this.broadcasts.found(workspaceOf(context), broadcastId);
    if (!row.audience_id) throw new AppError(EmailBroadcastErrors.BroadcastAudienceRequired);
    if (!(await this.audiences.exists(context, row.audience_id)))
      throw new AppError(EmailBroadcastErrors.BroadcastAudienceUnknown, {
        details: [{ param: 'audience_id', message: `no audience ${row.audience_id}` }],
      });
    return row;
  }
}

function pageOf(request: { limit: number; starting_after?: string; ending_before?: string }) {
  return {
    limit: request.limit,
    starting_after: request.starting_after,
    ending_before: request.ending_before,
  };
}
