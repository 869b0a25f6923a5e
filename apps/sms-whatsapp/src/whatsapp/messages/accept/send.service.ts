import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WhatsAppGraphErrors } from '@switchboard/contracts';
import type { RequestContext, WhatsAppMessage, WhatsAppSendInput } from '@switchboard/contracts';
import { CommitBatcher, writeTogetherOrAlone } from '@switchboard/background';
import { idempotencyScope, idempotentWrite, storedReply } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError, SealedBox, workspaceOf } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../../config/sms-whatsapp.config';
import { WhatsAppAcceptRepository } from './accept.repository';
import { validateWhatsAppSend } from '../../content';
import { WhatsAppSendRules } from './send-rules';
import { stoppedByPreferences } from '../../../preferences';
import { phonesOfBsuids } from '../known-phones.repository';
import type { PreferenceCheck } from '../../../preferences';
import { acceptedView, draftOutbound, isTransactional } from './whatsapp-draft';
import type { OutboundWhatsApp, WhatsAppDraft } from './whatsapp-draft';

/** A send without an Idempotency-Key, waiting for the next shared insert. */
interface PlainSend {
  workspaceId: string;
  send: OutboundWhatsApp;
  /** Set by the insert that holds it. */
  draft?: WhatsAppDraft;
}

/**
 * Accepts WhatsApp sends: the content rules, the sender, the template or the service window, the
 * quoted message; then the recipient's preferences (ADR 14: a send they stop is stored `rejected`,
 * never dispatched); then the message, its events (timeline and outbox) and its dispatch job in
 * one transaction with its Idempotency-Key, before the 202.
 */
@Injectable()
export class WhatsAppSendService {
  /**
   * Group commit of sends without an Idempotency-Key (nothing to claim): those arriving while one
   * insert runs are written together by the next, in one statement in autocommit, each answered
   * after the commit that holds it (one WAL flush for many sends under load).
   */
  private readonly plainSends = new CommitBatcher<PlainSend>((sends) => this.insertPlain(sends));

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @InjectDataSource('sms_whatsapp') private readonly dataSource: DataSource,
    private readonly box: SealedBox,
    private readonly repository: WhatsAppAcceptRepository,
    private readonly rules: WhatsAppSendRules,
  ) {}

  async send(context: RequestContext, input: WhatsAppSendInput): Promise<WhatsAppMessage> {
    const draft = validateWhatsAppSend(input.body);
    // A deployment that cannot reach Meta would never send: refused before anything is stored.
    if (!this.config.WHATSAPP_ACCESS_TOKEN)
      throw new AppError(WhatsAppGraphErrors.WhatsAppNotConfigured);
    const workspaceId = workspaceOf(context);
    const scope = idempotencyScope(context);
    // A retry replays the first answer, even if its window has closed since.
    const replay = await storedReply<WhatsAppMessage>(
      this.dataSource,
      'sms_whatsapp',
      scope,
      this.box,
    );
    if (replay !== undefined) return replay;
    const send = await this.rules.resolve(workspaceId, draft);
    if (!scope.key) {
      const plain: PlainSend = { workspaceId, send };
      await this.plainSends.add(plain);
      return acceptedView(plain.draft as WhatsAppDraft);
    }
    let queued = false;
    const reply = await idempotentWrite(
      this.dataSource,
      'sms_whatsapp',
      scope,
      this.box,
      async (manager) => {
        const stopped = await this.stopped(manager, [{ workspaceId, send }]);
        const written = draftOutbound(workspaceId, send, new Date(), {
          idempotencyKey: scope.key,
          optedOut: stopped.has(0),
        });
        await this.repository.insert(manager, [written]);
        queued = written.job !== null;
        return acceptedView(written);
      },
    );
    this.repository.wakeAll(queued);
    return reply;
  }

  /**
   * One preference read and one insert for every waiting send; if the insert fails and held
   * several, each is retried alone.
   */
  private async insertPlain(sends: PlainSend[]): Promise<unknown[]> {
    const stopped = await this.stopped(this.repository.autocommit, sends);
    const now = new Date();
    sends.forEach((plain, index) => {
      plain.draft = draftOutbound(plain.workspaceId, plain.send, now, {
        optedOut: stopped.has(index),
      });
    });
    const drafts = sends.map((plain) => plain.draft as WhatsAppDraft);
    const failures = await writeTogetherOrAlone(drafts, (some) =>
      this.repository.insert(this.repository.autocommit, some),
    );
    this.repository.wakeAll(drafts.some((draft) => draft.job !== null));
    return failures;
  }

  /**
   * The sends (by index) their recipient's preferences stop (ADR 14), in one read: the statement
   * for the sender's business account wins over the channel-wide one. The ledger knows WhatsApp
   * people by phone number: a recipient named by a business-scoped user id is checked by the
   * number it was last seen with (one more read), and passes when none was ever seen.
   */
  private async stopped(
    runner: SqlRunner,
    sends: ReadonlyArray<{ workspaceId: string; send: OutboundWhatsApp }>,
  ): Promise<Set<number>> {
    if (!this.config.PREFERENCES_ENFORCEMENT) return new Set();
    const phones = await phonesOfBsuids(
      runner,
      sends.flatMap(({ workspaceId, send }) =>
        send.to.kind === 'bsuid' ? [{ workspaceId, bsuid: send.to.bsuid }] : [],
      ),
    );
    const checks: PreferenceCheck[] = [];
    const indexes: number[] = [];
    sends.forEach(({ workspaceId, send }, index) => {
      const phone =
        send.to.kind === 'phone_number'
          ? send.to.phoneNumber
          : phones.get(`${workspaceId} ${send.to.bsuid}`);
      if (!phone) return;
      indexes.push(index);
      checks.push({
        workspaceId,
        channel: 'whatsapp',
        handle: phone,
        senderScope: send.businessAccount,
        transactional: isTransactional(send),
      });
    });
    const stopped = await stoppedByPreferences(runner, checks);
    return new Set([...stopped].map((checkIndex) => indexes[checkIndex]));
  }
}
