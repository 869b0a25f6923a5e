import { Logger } from '@nestjs/common';
import * as smpp from 'smpp';
import type { PDU, PduFields, Session } from 'smpp';
import { smppBindRefusals, smppBound } from './carrier-metrics';
import { CarrierSubmitError } from './sms-carrier';
import { answerMalformedRequests, MALFORMED_EVENT } from './smpp-malformed';
import { keepRawShortMessages } from './smpp-raw-bytes';
import { classifyCommandStatus, ESME_RINVTLVSTREAM, ESME_ROK } from './smpp-status';
import type { SmppCarrierConfig } from './smpp-url';
import { SubmitQueue } from './submit-queue';

/** ESME_RINVPASWD and ESME_RINVSYSID: the bind's credentials, not the link, are wrong. */
const CREDENTIAL_REFUSALS: ReadonlySet<number> = new Set([0x0e, 0x0f]);
/** How long at most between binds whose credentials were refused. */
const CREDENTIALS_RETRY_MS = 5 * 60_000;

/** Answers one `deliver_sm` with this `command_status` (on the connection it came from). */
export type DeliverAnswer = (status: number) => void;

export interface SmppBindTuning {
  /** First reconnection delay; it doubles per failed attempt, with jitter, up to `reconnectMaxMs`. */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  throttlePauseMs?: number;
  /**
   * How long a connection may take to be bound (TCP, TLS and bind_transceiver_resp) before it is
   * dropped and tried again: an SMSC, or a proxy before it, that accepts and never answers would
   * otherwise hold the carrier unbound until a restart. Default 30 s.
   */
  bindTimeoutMs?: number;
}

/** Sessions whose socket is corked until the end of this turn of the event loop. */
const gathering = new WeakSet<Session>();

/**
 * `session.send`, with the PDUs of one turn of the event loop leaving in one write: a group
 * commit frees several submit slots, or answers several `deliver_sm`, at once, and each write to
 * the carrier's socket is a system call and a wake-up of the other side. The socket is uncorked
 * once the turn's promise callbacks have run, before any timer or I/O.
 */
export function sendGathered(session: Session, pdu: PDU, onResponse?: (pdu: PDU) => void): boolean {
  if (!gathering.has(session)) {
    gathering.add(session);
    session.socket.cork();
    process.nextTick(() => {
      gathering.delete(session);
      session.socket.uncork();
    });
  }
  return session.send(pdu, onResponse);
}

/**
 * One transceiver session with one carrier: connects, binds, keeps the link alive with
 * `enquire_link` (a link that stops answering is dropped), and comes back with exponential
 * back-off and jitter after a drop or a refused bind. Submits go through its `SubmitQueue`;
 * every `deliver_sm` goes to `onDeliver`, which answers it when what it carried is recorded.
 */
export class SmppBind {
  private readonly logger: Logger;
  private readonly queue: SubmitQueue;
  private session: Session | null = null;
  private isBound = false;
  private closing = false;
  private attempts = 0;
  /** The last bind was refused for its system_id or password. */
  private credentialsRefused = false;
  private sweep: NodeJS.Timeout | null = null;
  private reconnect: NodeJS.Timeout | null = null;

  constructor(
    readonly config: SmppCarrierConfig,
    private readonly onDeliver: (pdu: PDU, answer: DeliverAnswer) => void,
    private readonly tuning: SmppBindTuning = {},
  ) {
    keepRawShortMessages();
    answerMalformedRequests();
    this.logger = new Logger(`SmppBind ${config.name}`);
    smppBound.set({ carrier: config.name }, 0);
    this.queue = new SubmitQueue({
      carrier: config.name,
      window: config.window,
      tps: config.tps,
      senderTps: config.senderTps,
      submitTimeoutMs: config.submitTimeoutSeconds * 1000,
      throttlePauseMs: tuning.throttlePauseMs,
      onResponseTimeout: () => {
        this.logger.warn('a submit_sm went unanswered: dropping the connection');
        this.session?.destroy();
      },
    });
  }

  get bound(): boolean {
    return this.isBound;
  }

  /** Submits awaiting their response. */
  get inFlight(): number {
    return this.queue.sending;
  }

  start(): void {
    this.connect();
    // While unbound, submits wait for the bind only as long as a sent one waits for its answer.
    this.sweep = setInterval(() => {
      if (!this.isBound)
        this.queue.expireWaiting(this.config.submitTimeoutSeconds * 1000, 'not bound');
    }, 1000);
    this.sweep.unref();
  }

  /** Submits the parts of one message, in order, through this bind; resolves with their ids. */
  submit(parts: PduFields[]): Promise<string[]> {
    if (this.closing) {
      const message = `${this.config.name}: the carrier layer is closing`;
      return Promise.reject(
        new CarrierSubmitError(message, true, 'provider_unavailable', undefined, this.config.name),
      );
    }
    return this.queue.submit(parts);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.sweep) clearInterval(this.sweep);
    if (this.reconnect) clearTimeout(this.reconnect);
    this.queue.attach(null);
    this.queue.failAll('the carrier layer is closing');
    const session = this.session;
    if (!session) return;
    if (this.isBound)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        if (!session.unbind({}, () => resolve(void clearTimeout(timer)))) resolve();
      });
    this.isBound = false;
    smppBound.set({ carrier: this.config.name }, 0);
    session.destroy();
  }

  private connect(): void {
    if (this.closing) return;
    const { host, port, tls } = this.config;
    const session = smpp.connect({ host, port, tls, servername: tls ? host : undefined });
    this.session = session;
    const bindTimeoutMs = this.tuning.bindTimeoutMs ?? 30_000;
    const deadline = setTimeout(() => {
      if (this.session !== session || this.isBound) return;
      this.logger.warn(`not bound within ${bindTimeoutMs} ms: dropping the connection`);
      session.destroy();
    }, bindTimeoutMs);
    deadline.unref();
    session.once('close', () => clearTimeout(deadline));
    session.on(tls ? 'secureConnect' : 'connect', () => this.bindOn(session));
    // A socket error closes the connection anyway; an error of the library's read loop (a PDU
    // longer than it takes, a malformed response) leaves it reading nothing more: drop it.
    session.on('error', (err: Error) => {
      this.logger.warn(`connection error: ${err.message}`);
      session.destroy();
    });
    session.on(MALFORMED_EVENT, (pdu: PDU & { error?: string }) => {
      this.logger.warn(
        `an undecodable request (command_id 0x${pdu.command_id.toString(16)}: ${pdu.error}), answered generic_nack`,
      );
      session.send(
        new smpp.PDU('generic_nack', {
          sequence_number: pdu.sequence_number,
          command_status: ESME_RINVTLVSTREAM,
        }),
      );
    });
    session.on('close', () => this.dropped(session));
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    // The carrier ends the session: nothing more goes out on it (submits wait for the next
    // bind; those awaiting an answer fail when it closes), and a carrier that keeps its side
    // open does not hold it until the keep-alive gives up.
    session.on('unbind', (pdu: PDU) => {
      this.unbound(session);
      session.send(pdu.response(), () => {
        session.close();
        setTimeout(() => session.destroy(), 1000).unref();
      });
    });
    // Some carriers send receipts as data_sm: both carry the same fields and are answered alike.
    for (const command of ['deliver_sm', 'data_sm'])
      session.on(command, (pdu: PDU) =>
        this.onDeliver(pdu, (status) => {
          sendGathered(session, pdu.response({ command_status: status }));
        }),
      );
    session.on('unknown', (pdu: PDU) => session.send(pdu.response()));
  }

  private bindOn(session: Session): void {
    const { systemId, password, systemType } = this.config;
    const fields = {
      system_id: systemId,
      password,
      system_type: systemType,
      interface_version: 0x34,
    };
    session.bind_transceiver(fields, (pdu: PDU) => {
      if (pdu.command_status !== ESME_ROK) {
        const { name } = classifyCommandStatus(pdu.command_status);
        this.logger.error(`bind_transceiver refused: ${name}`);
        smppBindRefusals.inc({ carrier: this.config.name, status: name });
        this.credentialsRefused = CREDENTIAL_REFUSALS.has(pdu.command_status);
        return session.destroy();
      }
      this.logger.log(`bound to ${this.config.host}:${this.config.port}`);
      this.isBound = true;
      this.credentialsRefused = false;
      smppBound.set({ carrier: this.config.name }, 1);
      this.attempts = 0;
      this.keepAlive(session);
      this.queue.attach((submit, onResponse) =>
        sendGathered(session, new smpp.PDU('submit_sm', submit), onResponse),
      );
    });
  }

  private keepAlive(session: Session): void {
    const periodMs = this.config.enquireLinkSeconds * 1000;
    let answered = true;
    const timer = setInterval(() => {
      if (!answered) {
        this.logger.warn('enquire_link unanswered: dropping the connection');
        return session.destroy();
      }
      answered = false;
      session.enquire_link({}, () => (answered = true));
    }, periodMs);
    timer.unref();
    session.once('close', () => clearInterval(timer));
  }

  /** The session can take no more submits (unbound by the carrier, or gone). */
  private unbound(session: Session): void {
    if (session !== this.session) return;
    this.isBound = false;
    smppBound.set({ carrier: this.config.name }, 0);
    this.queue.attach(null);
  }

  private dropped(session: Session): void {
    if (session !== this.session) return;
    const wasBound = this.isBound;
    this.unbound(session);
    this.session = null;
    this.queue.failInFlight('connection lost before submit_sm_resp');
    if (this.closing) return;
    const delay = reconnectDelayMs(this.attempts++, this.credentialsRefused, this.tuning);
    const jittered = Math.round(delay / 2 + Math.random() * (delay / 2));
    if (wasBound) this.logger.warn(`connection lost; reconnecting in ${jittered} ms`);
    this.reconnect = setTimeout(() => this.connect(), jittered);
    this.reconnect.unref();
  }
}

/**
 * The wait before reconnection attempt `attempt` (0 first), before its jitter: doubling from
 * `reconnectBaseMs` to `reconnectMaxMs`, or to five minutes after a refusal of the credentials,
 * which stay wrong until someone changes them: trying every 30 s would only risk locking the
 * account.
 */
export function reconnectDelayMs(
  attempt: number,
  credentialsRefused: boolean,
  tuning: Pick<SmppBindTuning, 'reconnectBaseMs' | 'reconnectMaxMs'>,
): number {
  const base = tuning.reconnectBaseMs ?? 500;
  const cap = credentialsRefused ? CREDENTIALS_RETRY_MS : (tuning.reconnectMaxMs ?? 30_000);
  return Math.min(cap, base * 2 ** Math.min(attempt, 16));
}
