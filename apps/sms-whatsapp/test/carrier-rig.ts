import { startTestSmsc } from '@switchboard/testing';
import type { TestSmsc, TestSmscOptions } from '@switchboard/testing';
import type {
  CarrierListener,
  CarrierReceipt,
  InboundSms,
  SmsSubmission,
} from '../src/carriers/sms-carrier';
import { SmppCarriers } from '../src/carriers/smpp.carriers';
import { parseSmppUrl } from '../src/carriers/smpp-url';

/** A spec's carriers over test SMSCs (real SMPP over loopback), and what they handed upwards. */
export interface CarrierRig {
  smscs: TestSmsc[];
  carriers: SmppCarriers;
  receipts: CarrierReceipt[];
  /** Whole inbound messages: a long one once all its parts came (each part is in `parts`). */
  inbound: InboundSms[];
  parts: InboundSms[];
  /** Replaces the listener's behaviour (default: records and resolves). */
  listener: Partial<CarrierListener>;
  until(condition: () => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startRig(
  carriers: Array<{ smsc?: TestSmscOptions; params?: Record<string, string> }>,
): Promise<CarrierRig> {
  const smscs = await Promise.all(carriers.map((c) => startTestSmsc(c.smsc)));
  const url = smscs
    .map((smsc, i) => {
      const query = new URLSearchParams({ name: `c${i}`, ...carriers[i].params }).toString();
      return `${smsc.url}?${query}`;
    })
    .join(',');
  const rig: CarrierRig = {
    smscs,
    carriers: new SmppCarriers(parseSmppUrl(url), {
      reconnectBaseMs: 50,
      reconnectMaxMs: 500,
      throttlePauseMs: 20,
    }),
    receipts: [],
    inbound: [],
    parts: [],
    listener: {},
    until: async (condition, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    stop: async () => {
      await rig.carriers.close();
      await Promise.all(smscs.map((smsc) => smsc.stop()));
    },
  };
  rig.carriers.listen({
    onReceipt: async (receipt) => {
      await rig.listener.onReceipt?.(receipt);
      rig.receipts.push(receipt);
    },
    onInbound: async (message) => {
      await rig.listener.onInbound?.(message);
      const { part, ...whole } = message;
      if (!part) return void rig.inbound.push(message);
      rig.parts.push(message);
      const same = rig.parts.filter(
        (p) =>
          p.from === message.from &&
          p.to === message.to &&
          p.part?.reference === part.reference &&
          p.part.total === part.total,
      );
      const sequences = new Set(same.map((p) => p.part?.sequence));
      if (sequences.size < part.total) return;
      const ordered = [...sequences]
        .sort((a, b) => (a ?? 0) - (b ?? 0))
        .map((sequence) => same.find((p) => p.part?.sequence === sequence) as InboundSms);
      rig.parts = rig.parts.filter((p) => !same.includes(p));
      rig.inbound.push({ ...whole, text: ordered.map((p) => p.text).join('') });
    },
  });
  rig.carriers.start();
  await rig.until(() => rig.carriers.binds().every((bind) => bind.bound));
  return rig;
}

/** A one-part GSM 7-bit message (ASCII letters are their own septets). */
export function gsmSubmission(to: string, text: string, from = '+31612345678'): SmsSubmission {
  return {
    messageId: `sms_${text}`,
    from,
    to,
    dataCoding: 0,
    parts: [Buffer.from(text, 'latin1')],
  };
}
