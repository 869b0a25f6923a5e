import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { phoneNumber, replaceLoneSurrogates } from '@switchboard/contracts';
import { CommitBatcher, wakeQueue, writeTogetherOrAlone } from '@switchboard/background';
import { inPgTransaction, pgPoolOf, poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { SMS_CARRIERS } from '../carriers/sms-carrier';
import type {
  CarrierListener,
  CarrierReceipt,
  InboundSms,
  SmsCarriers,
} from '../carriers/sms-carrier';
import { INBOUND_RULES } from '../inbound/inbound-rules';
import type { InboundRules } from '../inbound/inbound-rules';
import { AcceptRepository, draftInbound, draftOutbound } from '../messages';
import { carrierMessageIdKey } from '../carriers/delivery-receipt';
import { stockableNumber } from '../numbers';
import { InboundRepository } from './inbound.repository';
import { RECEIPTS_QUEUE, ReceiptsRepository } from './receipts.repository';
import type { StoredReceipt } from './receipts.repository';

/**
 * What the carriers send us, made durable before they are answered: a receipt goes to the inbox
 * with its job (applied by `ReceiptsRunner`), the receipts that arrive while one statement runs
 * written together by the next (group commit: one WAL flush for many, each answered after it); an inbound message is stored for
 * the workspace holding the number it was sent to, the keyword rules applied and their replies
 * queued, all in one transaction. A number nobody holds is recorded as unroutable and answered.
 */
@Injectable()
export class SmsCarrierListener implements CarrierListener, OnApplicationBootstrap {
  private readonly logger = new Logger(SmsCarrierListener.name);
  private readonly pool: Pool;
  private readonly autocommit: SqlRunner;
  private readonly receiptWrites = new CommitBatcher<StoredReceipt>((receipts) =>
    this.storeReceipts(receipts),
  );

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly receipts: ReceiptsRepository,
    private readonly inbound: InboundRepository,
    private readonly accept: AcceptRepository,
    @Inject(SMS_CARRIERS) private readonly carriers: SmsCarriers,
    @Inject(INBOUND_RULES) private readonly rules: InboundRules,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.autocommit = poolRunner(dataSource);
  }

  onApplicationBootstrap(): void {
    this.carriers.listen(this);
  }

  onReceipt(receipt: CarrierReceipt): Promise<void> {
    const id = storable(receipt.carrierMessageId);
    return this.receiptWrites.add({
      carrier: receipt.carrier,
      carrier_message_id: id,
      match_key: carrierMessageIdKey(id),
      stat: storable(receipt.stat),
      err: receipt.err === null ? null : storable(receipt.err),
      done_at: receipt.doneAt,
    });
  }

  /**
   * One statement for the waiting receipts; if it fails and held several, each is written alone,
   * so one receipt PostgreSQL refuses is refused (and resent by its carrier) by itself.
   */
  private async storeReceipts(receipts: StoredReceipt[]): Promise<unknown[]> {
    const failures = await writeTogetherOrAlone(receipts, (some) =>
      this.receipts.store(this.autocommit, some),
    );
    wakeQueue(this.pool, 'sms_whatsapp', RECEIPTS_QUEUE);
    return failures;
  }

  async onInbound(received: InboundSms): Promise<void> {
    // What a handset sent may hold NUL or half a surrogate pair, which PostgreSQL cannot store:
    // refused, the carrier would resend it forever.
    const message = {
      ...received,
      text: storable(received.text),
      from: storable(received.from),
      to: storable(received.to),
    };
    const queued = await inPgTransaction(this.pool, async (tx) => {
      if (!message.part) return this.record(tx, message);
      // The part's text as decoded: made storable once joined, a pair split across parts whole.
      const parts = await this.inbound.storePart(tx, {
        ...message,
        text: received.text,
        part: message.part,
      });
      // Stored: the message is recorded with its last part.
      if (!parts) return undefined;
      const receivedAt = new Date(Math.min(...parts.map((p) => new Date(p.received_at).getTime())));
      const text = storable(parts.map((p) => p.text).join(''));
      return this.record(tx, { ...message, text, receivedAt });
    });
    if (queued !== undefined) this.accept.wakeAll(queued);
  }

  /**
   * A whole inbound message, in the caller's transaction: stored for the workspace holding its
   * number (or as unroutable), through the keyword rules, their replies queued. Answers whether
   * replies were queued (undefined when nobody holds the number).
   */
  private async record(tx: SqlRunner, message: InboundSms): Promise<boolean | undefined> {
    const addressed = phoneNumber(message.to) ?? message.to;
    const from = phoneNumber(message.from) ?? message.from;
    // The country of the number's range, or else its dial code's main one (+44 7700 900 is British).
    const senderCountry = stockableNumber(from)?.country_code ?? null;
    const holder = await this.inbound.holderOf(tx, addressed, senderCountry);
    if (!holder) {
      await this.inbound.recordUnroutable(tx, message);
      this.logger.warn(
        `inbound SMS from ${from} to ${addressed} over ${message.carrier}: no workspace holds ${addressed}; recorded as unroutable`,
      );
      return undefined;
    }
    // The number as the workspace holds it (a short code's bare digits), for its keyword rules
    // and the replies sent from it.
    const { workspaceId, number: to, country: toCountry } = holder;
    const received = draftInbound(workspaceId, { ...message, to, from });
    await this.accept.insert(tx, [received]);
    const replies = await this.rules.apply(tx, {
      workspaceId,
      messageId: received.row.id,
      from,
      to,
      toCountry,
      text: message.text,
      receivedAt: message.receivedAt,
    });
    const now = new Date();
    // Keyword replies go past the opt-out checks (the accept's and the submit's): a STOP's
    // confirmation reaches a pair it just suppressed. They go back through the carrier the
    // message came in on, which holds our number, whatever routes the texter's prefix.
    const drafts = replies.map((reply) =>
      draftOutbound(
        workspaceId,
        {
          to: reply.to,
          from: reply.from,
          text: reply.text,
          category: 'service',
          smartEncoding: false,
          tags: [],
          metadata: {},
          carrier: message.carrier,
        },
        now,
        { suppressed: false, keywordReply: true },
      ),
    );
    await this.accept.insert(tx, drafts);
    return drafts.length > 0;
  }
}

/** Text PostgreSQL can store: NUL removed, lone surrogates replaced (U+FFFD). */
function storable(text: string): string {
  return replaceLoneSurrogates(text.replace(/\u0000/g, ''));
}
