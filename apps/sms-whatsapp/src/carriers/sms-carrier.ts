/**
 * How the SMS service reaches carriers: one interface, whatever sits behind it (SMPP binds to
 * the carriers of `SMPP_URL`; a test replaces nothing, it starts a local SMSC). The messages
 * pipeline encodes and splits a message itself (`../encoding`); a carrier only moves the parts.
 */

/** One message to submit: every part goes through the same bind, in order. */
export interface SmsSubmission {
  /** Our message id (`sms_...`): logged by the carrier layer, never sent to the carrier. */
  messageId: string;
  /** A number in E.164 (`+3161...`: sent as TON 1 / NPI 1, digits only) or an alphanumeric sender (TON 5 / NPI 0). */
  from: string;
  /** E.164 with the `+`; sent as TON 1 / NPI 1, digits only. */
  to: string;
  /**
   * The carrier to go through, by name, instead of routing by `to`: a keyword's reply goes back
   * through the carrier its message came in on (contract section 9). Routed by `to` when that
   * carrier is no longer configured.
   */
  carrier?: string;
  /** `data_coding` of every part: 0 GSM 7-bit (one septet per octet, unpacked), 8 UCS-2 (UTF-16BE). */
  dataCoding: 0 | 8;
  /**
   * The `short_message` bytes of each part in order. Several parts each begin with their
   * concatenation UDH (`05 00 03 ref total seq`) and go with `esm_class` 0x40.
   */
  parts: Buffer[];
}

/** What the carrier answered to every part. */
export interface SubmitOutcome {
  /** The carrier's name (its `SMPP_URL` entry's name, or host:port). */
  carrier: string;
  /** The `message_id` of each part's `submit_sm_resp`, as the carrier wrote it (store its `carrierMessageIdKey`). */
  carrierMessageIds: string[];
}

/**
 * A submit the carrier refused, or could not be made. `temporary` ones are retried by the
 * pipeline with back-off (a bind down, a time-out, a throttle that outlasted the carrier layer's
 * own retries); the others fail the message with `code`.
 */
export class CarrierSubmitError extends Error {
  constructor(
    message: string,
    readonly temporary: boolean,
    /** The normalised `last_error.code` (`invalid_destination`, `provider_unavailable`, ...). */
    readonly code: string,
    /** The SMPP `command_status`, when the carrier answered one. */
    readonly commandStatus?: number,
    /** The carrier's name, when the submit reached one. */
    readonly carrier?: string,
  ) {
    super(message);
    this.name = 'CarrierSubmitError';
  }
}

/** A delivery receipt (`deliver_sm` with `esm_class` bit 0x04). */
export interface CarrierReceipt {
  carrier: string;
  /**
   * From `receipted_message_id`, else the `id:` of the text, as received; converted to the base
   * of the `submit_sm_resp` ids when the carrier's `receipt_ids` parameter says its receipts
   * quote them in the other base. Match it to a submit's id by `carrierMessageIdKey` (case and
   * leading zeros differ between the two on some carriers).
   */
  carrierMessageId: string;
  /** `DELIVRD`, `EXPIRED`, `UNDELIV`, `REJECTD`, `DELETED`, `UNKNOWN`, `ACCEPTD`, `ENROUTE`... */
  stat: string;
  /** The `err:` field, as received (`000`), or null. */
  err: string | null;
  /** `done date`, when the receipt had one. */
  doneAt: Date | null;
}

/** A mobile-originated message (any other `deliver_sm`), reassembled when it came in parts. */
export interface InboundSms {
  carrier: string;
  /** The sender, E.164 with `+` when it is a number. */
  from: string;
  /** Our number it was sent to, E.164 with `+`. */
  to: string;
  text: string;
  receivedAt: Date;
  /**
   * One part of a long message (its UDH or SAR numbering): the listener stores it and records
   * the message once every part has come, so each part is answered as soon as it is stored.
   */
  part?: { reference: number; total: number; sequence: number };
}

/**
 * What the carrier layer hands upwards. Each call resolves once what it carried is durably
 * recorded: only then does the carrier layer answer `deliver_sm_resp`; a rejection is answered
 * with an error status so the carrier resends it later.
 */
export interface CarrierListener {
  onReceipt(receipt: CarrierReceipt): Promise<void>;
  onInbound(message: InboundSms): Promise<void>;
}

/** A carrier's bind as the rest of the service sees it. */
export interface CarrierBind {
  carrier: string;
  bound: boolean;
  inFlight: number;
  /** Submits in flight at most. */
  window: number;
  /** Submits per second at most from any one sender, when the carrier sets a cap. */
  senderTps?: number;
}

export interface SmsCarriers {
  /** False when `SMPP_URL` names no carrier: sends are refused at once. */
  readonly configured: boolean;
  /**
   * Submits every part of the message through the carrier its destination routes to, waiting
   * for a free slot of that bind's window and its throughput cap. Throttling answers
   * (`ESME_RTHROTTLED`, `ESME_RMSGQFUL`) pause the bind and are retried there, in order.
   * Rejects with `CarrierSubmitError`.
   */
  submit(submission: SmsSubmission): Promise<SubmitOutcome>;
  /** Hands what the carriers send us (receipts, inbound messages) to `listener`. */
  listen(listener: CarrierListener): void;
  /** The name of the carrier a message to `to` goes through (`carrier` when it names one), if any. */
  carrierOf(to: string, carrier?: string): string | undefined;
  /** The carrier names and whether each has a bound connection now (readiness, metrics). */
  binds(): CarrierBind[];
  /** Unbinds and closes every connection. */
  close(): Promise<void>;
}

/** The injection token of the service's `SmsCarriers`. */
export const SMS_CARRIERS = Symbol('SMS_CARRIERS');
