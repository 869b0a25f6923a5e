import { Injectable } from '@nestjs/common';
import { EmailBroadcastErrors } from '@switchboard/contracts';
import type {
  EmailBroadcast,
  RequestContext,
  SendEmailBroadcastRequest,
} from '@switchboard/contracts';
import { IdempotentWrites } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { ContentsRepository } from '../messages';
import { toBroadcastDto } from './broadcast.mapper';
import { BroadcastMessagesRepository } from './broadcast-messages.repository';
import { scheduleProblem } from './broadcast-request.normaliser';
import { BroadcastRequirements } from './broadcast-requirements';
import { BroadcastsRepository } from './broadcasts.repository';
import { BROADCAST_QUEUE, BroadcastsService } from './broadcasts.service';

/** Sending a broadcast (now or at a time) and canceling one: the state machine's requests. */
@Injectable()
export class BroadcastSendsService {
  constructor(
    private readonly broadcasts: BroadcastsService,
    private readonly repository: BroadcastsRepository,
    private readonly messages: BroadcastMessagesRepository,
    private readonly contents: ContentsRepository,
    private readonly requirements: BroadcastRequirements,
    private readonly writes: IdempotentWrites,
  ) {}

  /**
   * draft or scheduled -> scheduled (at `scheduled_at`) or accepted (now), with its preparation
   * job; 422 when a requirement fails (nothing changes), 409 once it has started or is final. An
   * accepted broadcast is dispatched again, as the SDK says (a preparation job, unless one waits
   * or runs), and answered as it is.
   */
  async send(context: RequestContext, input: SendEmailBroadcastRequest): Promise<EmailBroadcast> {
    const workspaceId = workspaceOf(context);
    let scheduledAt: Date | undefined;
    if (input.scheduled_at !== undefined) {
      const at = scheduleProblem(input.scheduled_at, new Date());
      if (typeof at === 'string')
        throw AppError.validation([{ param: 'scheduled_at', message: at }]);
      scheduledAt = at;
    }
    const answer = await this.writes.run(context, async (manager) => {
      const row = await this.broadcasts.found(workspaceId, input.broadcast_id, manager, true);
      if (row.status === 'accepted') {
        // Dispatched now, whatever `scheduled_at` says: it was accepted to go at once.
        if (!(await this.repository.hasJob(manager, BROADCAST_QUEUE, row.id)))
          await this.broadcasts.enqueue(manager, row.id);
        return toBroadcastDto(row, { kind: 'mutation' });
      }
      if (row.status !== 'draft' && row.status !== 'scheduled')
        throw new AppError(EmailBroadcastErrors.BroadcastAlreadySent, {
          message: `The broadcast is ${row.status}; only a draft, scheduled or accepted broadcast can be sent.`,
        });
      await this.requirements.check(context, row, manager);
      await this.requirements.checkReach(context, row, manager, scheduledAt);
      const status = scheduledAt ? 'scheduled' : 'accepted';
      await this.repository.setState(manager, row.id, {
        status,
        scheduled_at: scheduledAt ?? null,
      });
      // A job of an earlier schedule finds the broadcast due later and leaves it to this one.
      await this.broadcasts.enqueue(manager, row.id, scheduledAt);
      return toBroadcastDto(
        { ...row, status, scheduled_at: scheduledAt ?? null },
        { kind: 'mutation' },
      );
    });
    if (!scheduledAt || answer.status === 'accepted') this.broadcasts.wake();
    return answer;
  }

  /**
   * scheduled, accepted or sending -> canceling: the messages not yet processed are canceled at
   * once and no further page is prepared; the preparation job then makes it canceled. Canceling
   * or canceled answers the broadcast as it is; a draft (delete it), sent or failed one is 409.
   */
  async cancel(context: RequestContext, broadcastId: string): Promise<EmailBroadcast> {
    const workspaceId = workspaceOf(context);
    const answer = await this.writes.run(context, async (manager) => {
      const row = await this.broadcasts.found(workspaceId, broadcastId, manager, true);
      if (row.status === 'canceling' || row.status === 'canceled')
        return { dto: toBroadcastDto(row, { kind: 'mutation' }), wake: false };
      if (row.status !== 'scheduled' && row.status !== 'accepted' && row.status !== 'sending')
        throw new AppError(EmailBroadcastErrors.BroadcastNotCancelable, {
          message:
            row.status === 'draft'
              ? 'A draft broadcast was never sent: delete it instead.'
              : `The broadcast is ${row.status}; there is nothing left to cancel.`,
        });
      const canceledAt = new Date();
      await this.repository.setState(manager, row.id, {
        status: 'canceling',
        canceled_at: canceledAt,
      });
      const canceled = await this.messages.cancelUnprocessed(manager, workspaceId, row.id);
      await this.contents.purge(canceled, manager);
      await this.broadcasts.enqueue(manager, row.id);
      const dto = toBroadcastDto(
        { ...row, status: 'canceling', canceled_at: canceledAt },
        { kind: 'mutation' },
      );
      return { dto, wake: true };
    });
    if (answer.wake) this.broadcasts.wake();
    return answer.dto;
  }
}
