import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SmsErrors } from '@switchboard/contracts';
import type {
  RequestContext,
  SmsBatchReply,
  SmsMessage,
  SmsSendInput,
  SystemSmsSendRequest,
} from '@switchboard/contracts';
import { CommitBatcher, writeTogetherOrAlone } from '@switchboard/background';
import {
  idempotencyScope,
  idempotentWrite,
  isUniqueViolation,
  storedReply,
} from '@switchboard/persistence';
import { AppError, SealedBox, workspaceOf } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { carrierFor } from '../../carriers/smpp-url';
import { AcceptRepository } from './accept.repository';
import { normaliseSend, sendProblemsError } from './send-request.normaliser';
import type { NormalisedSend, SendProblem } from './send-request.normaliser';
import { toMessageDto } from '../message.mapper';
import { acceptedView, draftOutbound } from './sms-draft';
import type { OutboundSms, SmsDraft } from './sms-draft';
import { SenderRules } from './sender-rules';

/** A single send without an Idempotency-Key, waiting for the next shared insert. */
interface PlainSend {
  workspaceId: string;
  sms: OutboundSms;
  /** A system send's key, stored as the message's idempotency key. */
  dedupeKey?: string;
  /** Set by the insert that holds it. */
  draft?: SmsDraft;
}

/**
 * Accepts sends and batches: the value rules, the templates, the senders, then every row of the
 * send (messages, events, outbox, submit jobs) in one transaction with its Idempotency-Key
 * before the 202. A pair with an opt-out in force, or a recipient whose preferences stop the send
 * (ADR 14), is stored `rejected` and never queued.
 */
@Injectable()
export class SendService {
  /**
   * Group commit of single sends without an Idempotency-Key (nothing to claim): those arriving
   * while one insert runs are written together by the next, in one statement in autocommit, each
   * answered after the commit that holds it. Under load PostgreSQL does one statement and one WAL
   * flush for many sends, where it did a transaction of four round trips for each.
   */
  private readonly plainSends = new CommitBatcher<PlainSend>((sends) =>
    this.insertPlainSends(sends),
  );
  /** Keyed system sends being stored, by workspace and key. */
  private readonly keyedSends = new Map<string, Promise<SmsMessage>>();

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG)
    private readonly config: SmsWhatsappConfig,
    @InjectDataSource('sms_whatsapp') private readonly dataSource: DataSource,
    private readonly box: SealedBox,
    private readonly repository: AcceptRepository,
    private readonly senders: SenderRules,
  ) {}

  async send(context: RequestContext, input: SmsSendInput): Promise<SmsMessage> {
    const result = normaliseSend(input.body);
    if (!result.ok) throw sendProblemsError(result.problems);
    this.requireCarrier([result.value], '');
    const [message] = await this.accept(context, [result.value], '');
    return message;
  }

  /**
   * Another service's send of a system template: its body is built here, so it passes the
   * value rules as a template send, then takes the caller's sender, when it names one.
   */
  async sendSystem(context: RequestContext, input: SystemSmsSendRequest): Promise<SmsMessage> {
    if (!input.dedupe_key) return this.sendSystemOnce(context, input);
    // The same key asked again while its first send is being stored joins it here; on another
    // replica, its insert meets the unique key and answers the message stored.
    const key = `${workspaceOf(context)} ${input.dedupe_key}`;
    const running = this.keyedSends.get(key);
    if (running) return running;
    const sending = this.sendSystemOnce(context, input).finally(() => this.keyedSends.delete(key));
    this.keyedSends.set(key, sending);
    return sending;
  }

  private async sendSystemOnce(
    context: RequestContext,
    input: SystemSmsSendRequest,
  ): Promise<SmsMessage> {
    const body = { to: input.to, template: input.template, metadata: input.metadata };
    const result = normaliseSend(body);
    if (!result.ok) throw sendProblemsError(result.problems);
    this.requireCarrier([result.value], '');
    if (input.dedupe_key) {
      const stored = await this.repository.byKey(workspaceOf(context), input.dedupe_key);
      if (stored) return toMessageDto(stored);
    }
    try {
      const [message] = await this.accept(
        context,
        [{ ...result.value, from: input.from }],
        '',
        input.dedupe_key,
      );
      return message;
    } catch (err) {
      const stored =
        input.dedupe_key && isUniqueViolation(err)
          ? await this.repository.byKey(workspaceOf(context), input.dedupe_key)
          : undefined;
      if (stored) return toMessageDto(stored);
      throw err;
    }
  }

  /** Up to 100 sends, all checked before any is stored: one problem refuses the batch. */
  async sendBatch(context: RequestContext, input: SmsSendInput): Promise<SmsBatchReply> {
    const body = input.body as { messages?: unknown } | null;
    const messages = body?.messages;
    if (!Array.isArray(messages) || messages.length === 0 || messages.length > 100)
      throw AppError.validation([
        { param: 'messages', message: 'must be a list of 1 to 100 send requests' },
      ]);
    const problems: SendProblem[] = [];
    const sends: NormalisedSend[] = [];
    messages.forEach((item, index) => {
      const result = normaliseSend(item, `messages[${index}].`);
      if (result.ok) sends.push(result.value);
      else problems.push(...result.problems);
    });
    if (problems.length > 0) throw sendProblemsError(problems);
    this.requireCarrier(sends, 'messages');
    const data = await this.accept(context, sends, 'messages');
    return { data, summary: { accepted_count: data.length } };
  }

  /**
   * A deployment without carriers could never send, nor a carrier set none of whose prefixes
   * covers a destination (the SDK: 'a recipient that cannot be routed returns a 422
   * SMSInvalidRecipient'): a send whose values are valid is refused before its sender is looked
   * up or anything is stored.
   */
  private requireCarrier(sends: NormalisedSend[], batchParam: string): void {
    const carriers = this.config.SMPP_URL;
    if (!carriers?.length) throw new AppError(SmsErrors.SmsCarrierNotConfigured);
    const problems: SendProblem[] = [];
    sends.forEach((send, index) => {
      if (!carrierFor(carriers, send.to, (carrier) => carrier.prefixes))
        problems.push({
          param: `${batchParam ? `${batchParam}[${index}].` : ''}to`,
          message: `no carrier of this deployment routes ${send.to}`,
          code: SmsErrors.SMSInvalidRecipient,
        });
    });
    if (problems.length > 0) throw sendProblemsError(problems);
  }

  /** The sends' senders, then their rows in one transaction with the Idempotency-Key's claim. */
  private async accept(
    context: RequestContext,
    sends: NormalisedSend[],
    batchParam: string,
    dedupeKey?: string,
  ): Promise<SmsMessage[]> {
    const workspaceId = workspaceOf(context);
    const scope = idempotencyScope(context);
    // A retry replays the first answer, even if its sender has been released since.
    const replay = await storedReply<SmsMessage[]>(
      this.dataSource,
      'sms_whatsapp',
      scope,
      this.box,
    );
    if (replay !== undefined) return replay;
    const outbound: OutboundSms[] = await this.senders.resolve(workspaceId, sends, batchParam);
    if (!scope.key && outbound.length === 1) {
      const plain: PlainSend = { workspaceId, sms: outbound[0], dedupeKey };
      await this.plainSends.add(plain);
      return [acceptedView(plain.draft as SmsDraft)];
    }
    let queued = false;
    const reply = await idempotentWrite(
      this.dataSource,
      'sms_whatsapp',
      scope,
      this.box,
      async (manager) => {
        const optOuts = await this.repository.optOutsAmong(
          manager,
          outbound.map((sms) => ({ workspaceId, ...sms })),
          this.config.PREFERENCES_ENFORCEMENT,
        );
        const now = new Date();
        const drafts = outbound.map((sms, index) =>
          draftOutbound(workspaceId, sms, now, {
            suppressed: optOuts.get(index) ?? false,
            idempotencyKey: scope.key,
          }),
        );
        await this.repository.insert(manager, drafts);
        queued = drafts.some((draft) => draft.queued);
        return drafts.map(acceptedView);
      },
    );
    this.repository.wakeAll(queued);
    return reply;
  }

  /**
   * One opt-out read and one insert for every waiting send; if the insert fails and held several,
   * each is retried alone so a send that cannot be stored fails by itself.
   */
  private async insertPlainSends(sends: PlainSend[]): Promise<unknown[]> {
    const optOuts = await this.repository.optOutsAmong(
      this.repository.autocommit,
      sends.map(({ workspaceId, sms }) => ({ workspaceId, ...sms })),
      this.config.PREFERENCES_ENFORCEMENT,
    );
    const now = new Date();
    sends.forEach((send, index) => {
      send.draft = draftOutbound(send.workspaceId, send.sms, now, {
        suppressed: optOuts.get(index) ?? false,
        systemSendKey: send.dedupeKey,
      });
    });
    const drafts = sends.map((send) => send.draft as SmsDraft);
    const failures = await writeTogetherOrAlone(drafts, (some) =>
      this.repository.insert(this.repository.autocommit, some),
    );
    this.repository.wakeAll(drafts.some((draft) => draft.queued));
    return failures;
  }
}
