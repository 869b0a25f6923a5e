import * as smpp from 'smpp';
import type { PDU, PduFields, Session } from 'smpp';
import { decodeSmsPart, encodeSms } from '@switchboard/contracts';
import { keepRawShortMessages } from './smsc-codec';
import { messageIdOf, receiptPdu } from './smsc-receipts';
import type {
  SmscCounters,
  SmscMessage,
  SmscReceiptPlan,
  SmscSubmit,
  TestSmsc,
  TestSmscOptions,
} from './test-smsc.types';

export type * from './test-smsc.types';

const ESME_ROK = 0;
const ESME_RINVPASWD = 0x0e;
const ESME_RINVBNDSTS = 0x04;
const ESME_RTHROTTLED = 0x58;
const ESME_RX_P_APPN = 0x65;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A real SMPP server for tests and the bench (the `smpp` package over loopback): it checks the
 * bind's credentials, records every `submit_sm` and the messages their UDH reassemble to, hands
 * out message ids (hex or decimal) and sends receipts as told, sends mobile-originated messages
 * (resending a `deliver_sm` answered with an error, as carriers do), and can throttle, lose
 * responses, stop and come back on the same port.
 */
export async function startTestSmsc(options: TestSmscOptions = {}): Promise<TestSmsc> {
  keepRawShortMessages();
  const systemId = options.systemId ?? 'switchboard';
  const password = options.password ?? 'secret';
  const counters: SmscCounters = {
    binds: 0,
    bindsRefused: 0,
    enquireLinks: 0,
    submits: 0,
    throttled: 0,
    droppedResponses: 0,
    receiptsSent: 0,
    deliverAcked: 0,
    deliverRejected: 0,
    maxPending: 0,
  };
  const submits: SmscSubmit[] = [];
  const messages: SmscMessage[] = [];
  const deliverResponses: TestSmsc['deliverResponses'] = [];
  const pendingParts = new Map<string, SmscSubmit[]>();
  const bound = new Set<Session>();
  let throttles: number[] = [];
  let drops = 0;
  let pending = 0;
  let inboundReference = 0;

  const record = (submit: SmscSubmit) => {
    submits.push(submit);
    if (!submit.concat) {
      messages.push({
        from: submit.source.addr,
        to: submit.destination.addr,
        text: submit.text,
        parts: [submit],
      });
      return;
    }
    const key = `${submit.source.addr}|${submit.destination.addr}|${submit.concat.reference}`;
    const parts = [...(pendingParts.get(key) ?? []), submit];
    if (parts.length < submit.concat.total) return void pendingParts.set(key, parts);
    pendingParts.delete(key);
    parts.sort((a, b) => (a.concat?.sequence ?? 0) - (b.concat?.sequence ?? 0));
    messages.push({
      from: submit.source.addr,
      to: submit.destination.addr,
      text: parts.map((part) => part.text).join(''),
      parts,
    });
  };

  /** Sends a deliver_sm; an error answer is resent later, up to `redeliverAttempts` times. */
  const deliver = (fields: PduFields, kind: 'receipt' | 'inbound', attempt = 0): Promise<void> =>
    new Promise((resolve, reject) => {
      const session = [...bound][0];
      if (!session) return reject(new Error('test SMSC: no bound session to deliver to'));
      session.send(new smpp.PDU('deliver_sm', { ...fields }), (resp: PDU) => {
        deliverResponses.push({ kind, status: resp.command_status, at: Date.now() });
        if (resp.command_status === ESME_ROK) return resolve(void counters.deliverAcked++);
        counters.deliverRejected++;
        if (attempt >= (options.redeliverAttempts ?? 5)) return resolve();
        void sleep(options.redeliverAfterMs ?? 100)
          .then(() => deliver(fields, kind, attempt + 1))
          .then(resolve, reject);
      });
    });

  const sendReceipt = async (submit: SmscSubmit, plan: SmscReceiptPlan) => {
    counters.receiptsSent++;
    await deliver(receiptPdu(submit, plan, options), 'receipt');
  };

  const onSubmit = (session: Session, pdu: PDU) => {
    counters.submits++;
    if (!bound.has(session)) return session.send(pdu.response({ command_status: ESME_RINVBNDSTS }));
    if (throttles.length > 0) {
      counters.throttled++;
      return session.send(pdu.response({ command_status: throttles.shift() }));
    }
    const bytes = Buffer.from(pdu.short_message ?? Buffer.alloc(0));
    let decoded: ReturnType<typeof decodeSmsPart>;
    try {
      decoded = decodeSmsPart(pdu.data_coding ?? 0, bytes, pdu.esm_class ?? 0);
    } catch {
      return session.send(pdu.response({ command_status: ESME_RX_P_APPN }));
    }
    const submit: SmscSubmit = {
      messageId: messageIdOf(submits.length + 1, options.messageIds ?? 'hex'),
      systemId,
      source: {
        addr: pdu.source_addr ?? '',
        ton: pdu.source_addr_ton ?? 0,
        npi: pdu.source_addr_npi ?? 0,
      },
      destination: {
        addr: pdu.destination_addr ?? '',
        ton: pdu.dest_addr_ton ?? 0,
        npi: pdu.dest_addr_npi ?? 0,
      },
      esmClass: pdu.esm_class ?? 0,
      dataCoding: pdu.data_coding ?? 0,
      registeredDelivery: pdu.registered_delivery ?? 0,
      ...(pdu.validity_period instanceof Date ? { validUntil: pdu.validity_period } : {}),
      shortMessage: bytes,
      text: decoded.text,
      concat: decoded.concat,
      receivedAt: Date.now(),
    };
    record(submit);
    const plan = options.receipts?.(submit);
    if (plan?.beforeResponse) void sendReceipt(submit, plan).catch(() => undefined);
    if (drops > 0) {
      drops--;
      counters.droppedResponses++;
    } else {
      pending++;
      counters.maxPending = Math.max(counters.maxPending, pending);
      void sleep(options.responseDelayMs ?? 0).then(() => {
        pending--;
        session.send(pdu.response({ message_id: submit.messageId }));
      });
    }
    if (plan && !plan.beforeResponse)
      void sleep(plan.delayMs ?? 0)
        .then(() => sendReceipt(submit, plan))
        .catch(() => undefined);
  };

  const onSession = (session: Session) => {
    session.on('error', () => undefined);
    session.on('close', () => bound.delete(session));
    const bind = (pdu: PDU) => {
      if (pdu.system_id !== systemId || pdu.password !== password) {
        counters.bindsRefused++;
        session.send(pdu.response({ command_status: ESME_RINVPASWD }));
        return;
      }
      counters.binds++;
      bound.add(session);
      session.send(pdu.response({ system_id: 'test-smsc' }));
    };
    session.on('bind_transceiver', bind);
    session.on('bind_transmitter', bind);
    session.on('bind_receiver', bind);
    session.on('enquire_link', (pdu: PDU) => {
      counters.enquireLinks++;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: PDU) => {
      bound.delete(session);
      session.send(pdu.response(), () => session.close());
    });
    session.on('submit_sm', (pdu: PDU) => onSubmit(session, pdu));
  };

  const server = smpp.createServer(onSession);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const port = await listen(options.port ?? 0);
  const query = new URLSearchParams(options.urlParams ?? {}).toString();
  const credentials = `${encodeURIComponent(systemId)}:${encodeURIComponent(password)}`;

  return {
    port,
    url: `smpp://${credentials}@127.0.0.1:${port}${query ? `?${query}` : ''}`,
    submits,
    messages,
    deliverResponses,
    counters,
    bound: () => bound.size,
    throttleNext: (n, status = ESME_RTHROTTLED) => {
      throttles = [...throttles, ...Array<number>(n).fill(status)];
    },
    dropResponses: (n) => {
      drops += n;
    },
    sendInbound: async ({ from, to, text, onlyParts, sar, oneAtATime }) => {
      inboundReference = (inboundReference + 1) & 0xff;
      const { dataCoding, parts } = encodeSms(text, { reference: inboundReference });
      const numberTon = (addr: string) => (/^\+?\d+$/.test(addr) ? 1 : 5);
      const sends = parts
        .map((part, index) => ({ part, sequence: index + 1 }))
        .filter(({ sequence }) => !onlyParts || onlyParts.includes(sequence))
        .map(
          ({ part, sequence }) =>
            () =>
              deliver(
                {
                  source_addr_ton: numberTon(from),
                  source_addr_npi: numberTon(from) === 1 ? 1 : 0,
                  source_addr: from.replace(/^\+/, ''),
                  dest_addr_ton: 1,
                  dest_addr_npi: 1,
                  destination_addr: to.replace(/^\+/, ''),
                  ...(sar && parts.length > 1
                    ? {
                        esm_class: 0,
                        data_coding: dataCoding,
                        // The UDH (05 00 03 ref total seq) out: the TLVs number the part instead.
                        short_message: part.subarray(6),
                        sar_msg_ref_num: inboundReference,
                        sar_total_segments: parts.length,
                        sar_segment_seqnum: sequence,
                      }
                    : {
                        esm_class: parts.length > 1 ? 0x40 : 0,
                        data_coding: dataCoding,
                        short_message: part,
                      }),
                },
                'inbound',
              ),
        );
      if (!oneAtATime) return void (await Promise.all(sends.map((send) => send())));
      for (const send of sends) await send();
    },
    sendReceipt,
    unbind: async () => {
      const answers = [...bound].map(
        (session) =>
          new Promise<boolean>((resolve) => {
            bound.delete(session);
            const timer = setTimeout(() => resolve(false), 2000);
            session.unbind({}, (resp: PDU) => {
              clearTimeout(timer);
              resolve(resp.command_status === ESME_ROK);
            });
          }),
      );
      return (await Promise.all(answers)).filter(Boolean).length;
    },
    enquireLink: async () => {
      const answers = [...bound].map(
        (session) =>
          new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), 2000);
            session.enquire_link({}, (resp: PDU) => {
              clearTimeout(timer);
              resolve(resp.command_status === ESME_ROK);
            });
          }),
      );
      return (await Promise.all(answers)).filter(Boolean).length;
    },
    waitFor: async (condition, timeoutMs = 10_000) => {
      const holds = typeof condition === 'number' ? () => messages.length >= condition : condition;
      const deadline = Date.now() + timeoutMs;
      while (!holds()) {
        if (Date.now() > deadline)
          throw new Error(`test SMSC: condition not met in ${timeoutMs} ms`);
        await sleep(10);
      }
    },
    stop: async () => {
      for (const session of [...server.sessions]) session.destroy();
      bound.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    restart: async () => {
      await listen(port);
    },
  };
}
