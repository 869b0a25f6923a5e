import { Logger } from '@nestjs/common';
import { decodeSmsPart } from '@switchboard/contracts';
import type { PDU, PduFields } from 'smpp';
import { deliverKind, inSubmitForm, parseReceipt } from './delivery-receipt';
import { CarrierSubmitError } from './sms-carrier';
import type {
  CarrierBind,
  CarrierListener,
  SmsCarriers,
  SmsSubmission,
  SubmitOutcome,
} from './sms-carrier';
import { SmppBind } from './smpp-bind';
import type { DeliverAnswer, SmppBindTuning } from './smpp-bind';
import { ESME_ROK, ESME_RX_P_APPN, ESME_RX_T_APPN } from './smpp-status';
import { carrierFor } from './smpp-url';
import type { SmppCarrierConfig } from './smpp-url';

export interface SmppCarriersOptions extends SmppBindTuning {
  /**
   * How long after its handover a message is expired without a final receipt
   * (`SMS_RECEIPT_TIMEOUT_SECONDS`): submits ask the carrier to give up a little before, so its
   * own EXPIRED receipt, not our time-out, tells the outcome.
   */
  receiptTimeoutSeconds?: number;
}

/**
 * The relative `validity_period` (`YYMMDDhhmmss000R`) for a receipt time-out: the time-out less
 * a tenth of it, at most an hour; none under a minute (the carrier's default applies), and 99
 * days at most (the format's limit).
 */
export function validityFor(receiptTimeoutSeconds: number | undefined): string | undefined {
  if (!receiptTimeoutSeconds) return undefined;
  const margin = Math.min(3600, Math.floor(receiptTimeoutSeconds / 10));
  const seconds = Math.min(receiptTimeoutSeconds - margin, 99 * 86_400 + 86_399);
  if (seconds < 60) return undefined;
  const two = (n: number) => String(n).padStart(2, '0');
  const [days, hours, minutes] = [
    Math.floor(seconds / 86_400),
    Math.floor((seconds % 86_400) / 3600),
    Math.floor((seconds % 3600) / 60),
  ];
  return `0000${two(days)}${two(hours)}${two(minutes)}${two(seconds % 60)}000R`;
}

const NUMBER = /^\+?\d{1,20}$/;
/** Shortest international number (country code and subscriber) we take a bare string of digits for. */
const INTERNATIONAL_DIGITS = 9;

/**
 * An E.164 number (`+...`) as TON 1 / NPI 1 digits; a short code (digits without `+`, as the
 * numbers stock keeps them) as TON 3 / NPI 0 (network specific); anything else as an
 * alphanumeric sender (TON 5 / NPI 0).
 */
function address(value: string): { addr: string; ton: number; npi: number } {
  if (!NUMBER.test(value)) return { addr: value, ton: 5, npi: 0 };
  return value.startsWith('+')
    ? { addr: value.slice(1), ton: 1, npi: 1 }
    : { addr: value, ton: 3, npi: 0 };
}

/**
 * An address a carrier sent: `+digits` when it is international (TON 1, or digits long enough
 * to be one under TON 0 "unknown"); a short code or a national number stays as it came.
 */
function inboundAddress(value: string | undefined, ton: number | undefined): string {
  const raw = (value ?? '').trim();
  if (ton === 5 || !NUMBER.test(raw)) return raw;
  const digits = raw.replace(/^\+/, '');
  const international =
    ton === 1 ||
    raw.startsWith('+') ||
    (ton !== 2 && ton !== 3 && digits.length >= INTERNATIONAL_DIGITS);
  return international ? `+${digits}` : digits;
}

/**
 * `SmsCarriers` over the SMPP binds of `SMPP_URL`: routes each message by the longest
 * destination prefix (carriers without prefixes take the rest), and turns every `deliver_sm`
 * into a receipt or an inbound message for the listener, answering it once the listener has.
 */
export class SmppCarriers implements SmsCarriers {
  private readonly logger = new Logger(SmppCarriers.name);
  private readonly binds_: SmppBind[];
  private listener: CarrierListener | null = null;

  private readonly validityPeriod: string | undefined;

  constructor(configs: SmppCarrierConfig[], options: SmppCarriersOptions = {}) {
    this.validityPeriod = validityFor(options.receiptTimeoutSeconds);
    this.binds_ = configs.map(
      (config) => new SmppBind(config, (pdu, answer) => this.deliver(config, pdu, answer), options),
    );
  }

  get configured(): boolean {
    return this.binds_.length > 0;
  }

  /** Connects and binds every carrier (they keep trying in the background). */
  start(): void {
    for (const bind of this.binds_) bind.start();
  }

  async submit(submission: SmsSubmission): Promise<SubmitOutcome> {
    const bind = this.route(submission.to, submission.carrier);
    const { parts: payloads } = submission;
    // GSM 7-bit goes unpacked, one septet per octet: 160 of them in one segment, a UDH and 153
    // in a part. UCS-2 fills the 140 octets of a segment.
    const limit = submission.dataCoding === 0 ? 160 : 140;
    if (payloads.length === 0 || payloads.some((part) => part.length > limit))
      throw new CarrierSubmitError(
        `${submission.messageId}: a submission needs 1 or more parts of at most ${limit} bytes`,
        false,
        'content_rejected',
      );
    const source = address(submission.from);
    const destination = address(submission.to);
    const parts: PduFields[] = submission.parts.map((part) => ({
      source_addr_ton: source.ton,
      source_addr_npi: source.npi,
      source_addr: source.addr,
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: destination.addr,
      esm_class: submission.parts.length > 1 ? 0x40 : 0,
      registered_delivery: 1,
      ...(this.validityPeriod ? { validity_period: this.validityPeriod } : {}),
      data_coding: submission.dataCoding,
      short_message: part,
    }));
    const carrierMessageIds = await bind.submit(parts);
    return { carrier: bind.config.name, carrierMessageIds };
  }

  listen(listener: CarrierListener): void {
    this.listener = listener;
  }

  binds(): CarrierBind[] {
    return this.binds_.map((bind) => ({
      carrier: bind.config.name,
      bound: bind.bound,
      inFlight: bind.inFlight,
      window: bind.config.window,
      ...(bind.config.senderTps ? { senderTps: bind.config.senderTps } : {}),
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.binds_.map((bind) => bind.close()));
  }

  carrierOf(to: string, carrier?: string): string | undefined {
    try {
      return this.route(to, carrier).config.name;
    } catch {
      return undefined;
    }
  }

  private route(to: string, carrier: string | undefined): SmppBind {
    if (!this.configured)
      throw new CarrierSubmitError('SMPP_URL names no carrier', false, 'provider_unavailable');
    const named = carrier && this.binds_.find((bind) => bind.config.name === carrier);
    if (named) return named;
    const best = carrierFor(this.binds_, to, (bind) => bind.config.prefixes);
    if (best) return best;
    throw new CarrierSubmitError(
      `no carrier of SMPP_URL routes +${to.replace(/^\+/, '')} (every carrier has prefixes; none matches)`,
      false,
      'provider_unavailable',
    );
  }

  private deliver(config: SmppCarrierConfig, pdu: PDU, answer: DeliverAnswer): void {
    const listener = this.listener;
    if (!listener) return answer(ESME_RX_T_APPN);
    try {
      const kind = deliverKind(pdu);
      if (kind === 'other') {
        this.logger.warn(
          `${config.name}: a deliver_sm that is neither a message nor a receipt (esm_class 0x${(pdu.esm_class ?? 0).toString(16)}), acknowledged`,
        );
        return answer(ESME_ROK);
      }
      if (kind === 'receipt') {
        const receipt = parseReceipt(config.name, pdu);
        if (!receipt) {
          this.logger.warn(`${config.name}: a receipt without a message id, acknowledged`);
          return answer(ESME_ROK);
        }
        receipt.carrierMessageId = inSubmitForm(receipt.carrierMessageId, config.receiptIds);
        return this.answerAfter(config, listener.onReceipt(receipt), answer);
      }
      this.inbound(config, pdu, answer, listener);
    } catch (err) {
      this.logger.warn(`${config.name}: unreadable deliver_sm (${(err as Error).message})`);
      answer(ESME_RX_T_APPN);
    }
  }

  private inbound(
    config: SmppCarrierConfig,
    pdu: PDU,
    answer: DeliverAnswer,
    listener: CarrierListener,
  ): void {
    const bytes =
      pdu.short_message && pdu.short_message.length > 0
        ? pdu.short_message
        : (pdu.message_payload ?? Buffer.alloc(0));
    let part: ReturnType<typeof decodeSmsPart>;
    try {
      part = decodeSmsPart(pdu.data_coding ?? 0, Buffer.from(bytes), pdu.esm_class ?? 0);
    } catch (err) {
      // Sent again it would fail again: refused for good, and logged for the operator.
      this.logger.warn(`${config.name}: undecodable inbound message (${(err as Error).message})`);
      return answer(ESME_RX_P_APPN);
    }
    const from = inboundAddress(pdu.source_addr, pdu.source_addr_ton);
    const to = inboundAddress(pdu.destination_addr, pdu.dest_addr_ton);
    const message = { carrier: config.name, from, to, text: part.text, receivedAt: new Date() };
    const concat = part.concat ?? sarConcatenation(pdu);
    if (!concat || concat.total <= 1)
      return this.answerAfter(config, listener.onInbound(message), answer);
    if (concat.sequence < 1 || concat.sequence > concat.total) {
      this.logger.warn(
        `${config.name}: inbound part ${concat.sequence} of ${concat.total}, refused`,
      );
      return answer(ESME_RX_P_APPN);
    }
    // Each part is answered once stored: holding it until the others came would stall an SMSC
    // that sends one deliver_sm at a time, or spreads the parts over several binds.
    this.answerAfter(config, listener.onInbound({ ...message, part: concat }), answer);
  }

  /** Answers ESME_ROK once `work` is recorded; ESME_RX_T_APPN (sent again later) if it fails. */
  private answerAfter(config: SmppCarrierConfig, work: Promise<void>, answer: DeliverAnswer): void {
    work.then(
      () => answer(ESME_ROK),
      (err: Error) => {
        this.logger.warn(`${config.name}: deliver_sm not recorded (${err.message}); refused`);
        answer(ESME_RX_T_APPN);
      },
    );
  }
}

/**
 * A part numbered by the SAR TLVs instead of a UDH (SMPP 3.4 5.3.2.22-24), which some SMSCs use
 * for long inbound messages: undefined when any of the three is missing.
 */
function sarConcatenation(
  pdu: PDU,
): { reference: number; total: number; sequence: number } | undefined {
  const { sar_msg_ref_num: reference, sar_total_segments: total } = pdu;
  const sequence = pdu.sar_segment_seqnum;
  if (reference === undefined || total === undefined || sequence === undefined) return undefined;
  return { reference, total, sequence };
}
