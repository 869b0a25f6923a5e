import { Injectable } from '@nestjs/common';
import { VoiceErrors } from '@switchboard/contracts';
import type {
  ListVoiceCallsRequest,
  ReportVoiceCallReply,
  ReportVoiceCallRequest,
  RequestContext,
  VoiceCall,
} from '@switchboard/contracts';
import { writeOutboxEvents } from '@switchboard/background';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { voiceCallEvents } from './voice-call-events';
import { voiceCallFilters } from './voice-call-filters';
import { checkedReport, mergeReport } from './voice-call-report';
import { toVoiceCall } from './voice-call.mapper';
import { VoiceCallsRepository } from './voice-calls.repository';

/**
 * Voice call records: the SIP platform's reports (the operator API) and the workspace's reads.
 * Reports of one leg (session, direction, from, to) update one record, and each emits the
 * `voice_call.*` events it passed, in the transaction that records it.
 */
@Injectable()
export class VoiceCallsService {
  constructor(
    private readonly repository: VoiceCallsRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async report(
    context: RequestContext,
    input: ReportVoiceCallRequest,
  ): Promise<ReportVoiceCallReply> {
    const report = checkedReport(input.call, input.workspace_id);
    if (Array.isArray(report)) throw AppError.validation(report);
    const workspaceId = input.workspace_id;
    return this.writes.run(context, async (manager) => {
      const receivedAt = new Date();
      const leg = { ...report, workspace_id: workspaceId, session_id: report.session_id ?? null };
      let existing = leg.session_id ? await this.findLeg(manager, leg as VoiceCall) : undefined;
      if (!existing) {
        const merged = mergeReport(
          undefined,
          report,
          { id: newId('vcl'), workspace_id: workspaceId },
          receivedAt,
        );
        if (await this.repository.insert(manager, merged.call)) {
          await writeOutboxEvents(manager, 'sms_whatsapp', voiceCallEvents(merged, receivedAt));
          return { created: true, call: merged.call };
        }
        // A concurrent first report of this leg committed meanwhile: this one updates it.
        existing = await this.findLeg(manager, merged.call);
        if (!existing) throw new Error('voice call leg vanished after its conflicting insert');
      }
      const merged = mergeReport(existing, report, existing, receivedAt);
      await this.repository.update(manager, merged.call);
      await writeOutboxEvents(manager, 'sms_whatsapp', voiceCallEvents(merged, receivedAt));
      return { created: false, call: merged.call };
    });
  }

  async list(context: RequestContext, input: ListVoiceCallsRequest): Promise<Page<VoiceCall>> {
    const { filter, bound } = voiceCallFilters(workspaceOf(context), input);
    const page = await this.repository.list(
      filter,
      bound,
      {
        limit: input.limit,
        starting_after: input.starting_after,
        ending_before: input.ending_before,
      },
      this.cursors,
    );
    return { ...page, data: page.data.map(toVoiceCall) };
  }

  async get(context: RequestContext, callId: string): Promise<VoiceCall> {
    const row = await this.repository.find(workspaceOf(context), callId);
    if (!row) throw new AppError(VoiceErrors.VoiceCallNotFound);
    return toVoiceCall(row);
  }

  private async findLeg(runner: SqlRunner, call: VoiceCall): Promise<VoiceCall | undefined> {
    const row = await this.repository.findLeg(runner, call);
    return row && toVoiceCall(row);
  }
}
