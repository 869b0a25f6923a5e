import { Injectable } from '@nestjs/common';
import { phoneNumber, SmsRulesErrors } from '@switchboard/contracts';
import type {
  AddSmsSuppressionReply,
  AddSmsSuppressionRequest,
  ErrorDetail,
  ListSmsSuppressionsRequest,
  RequestContext,
  SmsSuppression,
} from '@switchboard/contracts';
import { writeOutboxEvents } from '@switchboard/background';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page, PreferenceStateRow, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { keywordStatementEvent } from './keyword-statement';
import type { KeywordStatement } from './keyword-statement';
import { senderForm } from './sms-senders';
import { smsSuppressionCreatedEvent, toSmsSuppressionDto } from './sms-suppression.mapper';
import { SmsSuppressionsRepository } from './sms-suppressions.repository';

/** The id prefix of a suppression episode (`sks_`/`skw_` are the keyword rules'). */
export const SMS_SUPPRESSION_ID_PREFIX = 'ssp';

/**
 * SMS suppression episodes: the API's list, read, add and remove, and the keyword STOP and
 * START the inbound rules apply inside the transaction that stores the inbound message.
 */
@Injectable()
export class SmsSuppressionsService {
  constructor(
    private readonly repository: SmsSuppressionsRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async list(
    context: RequestContext,
    input: ListSmsSuppressionsRequest,
  ): Promise<Page<SmsSuppression>> {
    const filters = { ...input };
    if (input.destination !== undefined) {
      const destination = phoneNumber(input.destination);
      if (!destination)
        throw AppError.validation([
          {
            param: 'destination',
            message: 'must be a phone number in E.164, such as +14155550100',
          },
        ]);
      filters.destination = destination;
    }
    if (input.originator !== undefined)
      filters.originator = senderForm(input.originator) ?? input.originator;
    const page = await this.repository.list(workspaceOf(context), filters, this.cursors);
    return { ...page, data: page.data.map(toSmsSuppressionDto) };
  }

  async get(context: RequestContext, id: string): Promise<SmsSuppression> {
    const row = await this.repository.find(workspaceOf(context), id);
    if (!row)
      throw new AppError(SmsRulesErrors.SmsSuppressionNotFound, { param: 'suppression_id' });
    return toSmsSuppressionDto(row);
  }

  /** A manual episode for the pair (201), or the manual one already in force (200). */
  async add(
    context: RequestContext,
    input: AddSmsSuppressionRequest,
  ): Promise<AddSmsSuppressionReply> {
    const workspaceId = workspaceOf(context);
    const destination = phoneNumber(input.destination);
    const originator = senderForm(input.originator);
    const problems: ErrorDetail[] = [];
    if (!destination)
      problems.push({
        param: 'destination',
        message: 'must be a phone number in E.164, such as +14155550100',
      });
    if (!originator)
      problems.push({
        param: 'originator',
        message: 'must be a number in E.164, a short code or an alphanumeric sender ID',
      });
    if (!destination || !originator) throw AppError.validation(problems);
    return this.writes.run(context, async (manager) => {
      if (!(await this.repository.holdsSender(manager, workspaceId, originator)))
        throw AppError.validation([
          {
            param: 'originator',
            message: `${originator} is not a sender of this workspace (one of its numbers or registered sender IDs)`,
          },
        ]);
      const { created, row } = await this.repository.addManual(manager, {
        id: newId(SMS_SUPPRESSION_ID_PREFIX),
        workspaceId,
        destination,
        originator,
        origin: context.caller.kind === 'session' ? 'user' : 'api_key',
      });
      if (created)
        await writeOutboxEvents(manager, 'sms_whatsapp', [smsSuppressionCreatedEvent(row)]);
      return { created, suppression: toSmsSuppressionDto(row) };
    });
  }

  /** Ends a manual episode; an ended one is already what was asked (204), others are 422. */
  async remove(context: RequestContext, id: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.find(workspaceId, id, manager, true);
      if (!row)
        throw new AppError(SmsRulesErrors.SmsSuppressionNotFound, { param: 'suppression_id' });
      if (row.ended_at !== null) return null;
      if (row.reason !== 'manual')
        throw new AppError(SmsRulesErrors.SmsSuppressionNotRemovable, {
          param: 'suppression_id',
          message:
            row.reason === 'keyword_stop'
              ? 'This suppression is the subscriber’s own STOP: it ends when they text a start keyword to this sender.'
              : `A ${row.reason} suppression cannot be ended through the API; only manual ones can.`,
        });
      await this.repository.end(
        manager,
        workspaceId,
        id,
        context.caller.kind === 'session' ? 'user' : 'api_key',
      );
      return null;
    });
  }

  /**
   * A STOP from `destination` to the workspace's `originator`, in the caller's transaction: opens
   * a `keyword_stop` episode (and its `sms_suppression.created` event) or re-asserts the one in
   * force, and tells the preference ledger either way (the person said it again); `superseded`
   * when a START received after it has already ended the pair's opt-out (nothing is said then).
   */
  async recordKeywordStop(
    executor: SqlRunner,
    stop: KeywordStatement,
  ): Promise<'opened' | 'reasserted' | 'superseded'> {
    await this.repository.lockPair(executor, stop);
    const opened = await this.repository.openKeywordStop(executor, {
      id: newId(SMS_SUPPRESSION_ID_PREFIX),
      workspaceId: stop.workspaceId,
      originator: stop.originator,
      destination: stop.destination,
      sourceSmsId: stop.messageId,
      at: stop.at,
    });
    if (!opened) return 'superseded';
    const { created, row } = opened;
    const statement = keywordStatementEvent('stop', stop);
    await writeOutboxEvents(executor, 'sms_whatsapp', [
      ...(created ? [smsSuppressionCreatedEvent(row)] : []),
      ...(statement ? [statement] : []),
    ]);
    return created ? 'opened' : 'reasserted';
  }

  /**
   * A START: ends the pair's `keyword_stop` episodes in force (other reasons keep theirs) and,
   * when it ended one, tells the preference ledger the person granted messaging again. A START
   * with no STOP of theirs in force says nothing: only their own opt-out is theirs to lift.
   */
  async recordKeywordStart(executor: SqlRunner, start: KeywordStatement): Promise<number> {
    await this.repository.lockPair(executor, start);
    const ended = await this.repository.endKeywordStops(executor, {
      workspaceId: start.workspaceId,
      originator: start.originator,
      destination: start.destination,
      sourceSmsId: start.messageId,
      at: start.at,
    });
    const statement = ended > 0 ? keywordStatementEvent('start', start) : undefined;
    if (statement) await writeOutboxEvents(executor, 'sms_whatsapp', [statement]);
    return ended;
  }

  /**
   * The ledger applied these statements (the preference projection's batch): a grant for an SMS
   * pair (originator, destination) reverses the person's STOP there, its consent later than the
   * STOP (the ledger refuses it otherwise), so the STOP's episode ends and the pair may be sent to
   * again; the SMS service and the ledger then agree. A STOP texted after it opens a new one.
   */
  async followGrants(grants: PreferenceStateRow[]): Promise<number> {
    const pairs = grants.filter(
      (row) => row.channel === 'sms' && row.status === 'granted' && row.sender_scope !== '',
    );
    return this.repository.endKeywordStopsGranted(
      this.repository.writer,
      pairs.map((row) => ({
        workspaceId: row.workspace_id,
        originator: row.sender_scope,
        destination: row.handle,
        at: new Date(row.effective_at),
      })),
    );
  }
}
