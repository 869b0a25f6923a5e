/**
 * One `submit_sm` the test SMSC accepted (answered, or meant to answer, ESME_ROK). One it cannot
 * decode (`decodeSmsPart` refuses its data_coding or UDH) is answered ESME_RX_P_APPN, unrecorded.
 */
export interface SmscSubmit {
  /** The id the SMSC gave it in `submit_sm_resp` (hex or decimal, per `messageIds`). */
  messageId: string;
  /** The bind's `system_id`. */
  systemId: string;
  source: { addr: string; ton: number; npi: number };
  destination: { addr: string; ton: number; npi: number };
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  /** When the ESME asked the SMSC to give the message up (its `validity_period`), if it did. */
  validUntil?: Date;
  shortMessage: Buffer;
  /** This part's text (its UDH removed). */
  text: string;
  concat?: { reference: number; total: number; sequence: number };
  receivedAt: number;
}

/** A message reassembled from its submits (one submit when it had no UDH). */
export interface SmscMessage {
  from: string;
  to: string;
  text: string;
  parts: SmscSubmit[];
}

/** What the SMSC sends back as a delivery receipt for one submit. */
export interface SmscReceiptPlan {
  /** `DELIVRD`, `EXPIRED`, `UNDELIV`, `REJECTD`, `DELETED`, `UNKNOWN`, `ACCEPTD`, `ENROUTE`. */
  stat: string;
  /** The `err:` field (default `000`). */
  err?: string;
  /** Delay after the submit (default 0). */
  delayMs?: number;
  /** Sends the receipt before the `submit_sm_resp` (a race some carriers really produce). */
  beforeResponse?: boolean;
}

export interface TestSmscOptions {
  /** 0 (default) picks a free port; give the old one to come back on it. */
  port?: number;
  systemId?: string;
  password?: string;
  /** Form of the ids in `submit_sm_resp`: `hex` (`a1b2c3`) or `decimal` with leading zeros. */
  messageIds?: 'hex' | 'decimal';
  /** Whether receipts quote the id as it was answered (`same`) or in the other base (`other`). */
  receiptIds?: 'same' | 'other';
  /** Where a receipt carries its id and state: TLVs, the text, or both (default). */
  receiptFormat?: 'tlv' | 'text' | 'both';
  /** The receipt of each accepted submit, or none (the default: no receipts). */
  receipts?: (submit: SmscSubmit) => SmscReceiptPlan | null | undefined;
  /** Delay before each `submit_sm_resp` (default 0): lets submits pile up in flight. */
  responseDelayMs?: number;
  /** A `deliver_sm` answered with an error is sent again after this delay (default 100 ms). */
  redeliverAfterMs?: number;
  /** How many times it is sent again at most (default 5). */
  redeliverAttempts?: number;
  /** Query parameters appended to `url` (`{ tps: '50' }` -> `?tps=50`). */
  urlParams?: Record<string, string>;
}

export interface SmscCounters {
  binds: number;
  bindsRefused: number;
  enquireLinks: number;
  /** Every submit_sm received, throttled ones included. */
  submits: number;
  throttled: number;
  /** Submits accepted whose response was dropped. */
  droppedResponses: number;
  receiptsSent: number;
  /** deliver_sm (receipts and inbound) answered with ESME_ROK / with an error status. */
  deliverAcked: number;
  deliverRejected: number;
  /** Most submits received and not yet answered at one moment. */
  maxPending: number;
}

/** The answer to one inbound part's `deliver_sm`, in the order received. */
export interface SmscDeliverResponse {
  kind: 'receipt' | 'inbound';
  status: number;
  at: number;
}

export interface TestSmsc {
  port: number;
  /** `smpp://<systemId>:<password>@127.0.0.1:<port>` (+ `urlParams`). */
  url: string;
  submits: SmscSubmit[];
  messages: SmscMessage[];
  deliverResponses: SmscDeliverResponse[];
  counters: SmscCounters;
  /** Sessions bound now. */
  bound(): number;
  /** Answers the next `n` submits with `status` (default ESME_RTHROTTLED 0x58), unrecorded. */
  throttleNext(n: number, status?: number): void;
  /** Accepts and records the next `n` submits but never answers them (a lost response). */
  dropResponses(n: number): void;
  /**
   * Sends a mobile-originated message to a bound session, in parts when long; resolves once
   * every part was answered ESME_ROK or its redeliveries ran out. `onlyParts` (1-based) sends
   * just those parts, as when the network lost the others. `sar`: the parts go without a UDH,
   * numbered by the SAR TLVs (`sar_msg_ref_num`, `sar_total_segments`, `sar_segment_seqnum`).
   * `oneAtATime`: each part only once the one before was answered, as SMSCs with a window of one.
   */
  sendInbound(message: {
    from: string;
    to: string;
    text: string;
    onlyParts?: number[];
    sar?: boolean;
    oneAtATime?: boolean;
  }): Promise<void>;
  /** Sends a receipt now for an id the SMSC gave (or any id, to test unknown ones). */
  sendReceipt(submit: SmscSubmit, plan: SmscReceiptPlan): Promise<void>;
  /** Resolves when `predicate` holds, or when this many messages were reassembled. */
  waitFor(condition: (() => boolean) | number, timeoutMs?: number): Promise<void>;
  /**
   * Sends `unbind` to every bound session, as an SMSC ending them; resolves with how many
   * answered `unbind_resp`. The SMSC leaves the connections open: the ESME must close them.
   */
  unbind(): Promise<number>;
  /** Sends `enquire_link` to every bound session; resolves with how many answered. */
  enquireLink(): Promise<number>;
  /** Drops every connection and stops listening. */
  stop(): Promise<void>;
  /** Listens again on the same port (after `stop`). */
  restart(): Promise<void>;
}
