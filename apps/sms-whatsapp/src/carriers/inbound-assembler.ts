import type { DeliverAnswer } from './smpp-bind';
import { ESME_ROK, ESME_RX_T_APPN } from './smpp-status';

/** One inbound part with the answer its `deliver_sm` still waits for. */
export interface HeldPart {
  key: string;
  from: string;
  to: string;
  sequence: number;
  total: number;
  text: string;
  receivedAt: Date;
  answer: DeliverAnswer;
}

interface Held {
  parts: Map<number, HeldPart>;
  timer: NodeJS.Timeout;
}

/**
 * Holds the parts of concatenated inbound messages, unanswered, until all have come. The whole
 * message is then handed on and every part is answered with its outcome; a message still
 * incomplete after `timeoutMs` has its parts answered with ESME_RX_T_APPN, so the carrier
 * sends them again (and nothing is recorded half).
 */
export class InboundAssembler {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly timeoutMs: number,
    private readonly complete: (message: {
      from: string;
      to: string;
      text: string;
      receivedAt: Date;
    }) => Promise<void>,
  ) {}

  add(part: HeldPart): void {
    let entry = this.held.get(part.key);
    if (!entry) {
      const timer = setTimeout(() => this.expire(part.key), this.timeoutMs);
      timer.unref();
      entry = { parts: new Map(), timer };
      this.held.set(part.key, entry);
    }
    // A part sent again replaces the copy held: that copy's sender has given up on it.
    entry.parts.get(part.sequence)?.answer(ESME_ROK);
    entry.parts.set(part.sequence, part);
    if (entry.parts.size < part.total) return;
    clearTimeout(entry.timer);
    this.held.delete(part.key);
    const parts = [...entry.parts.values()].sort((a, b) => a.sequence - b.sequence);
    const [first] = parts;
    const text = parts.map((p) => p.text).join('');
    this.complete({ from: first.from, to: first.to, text, receivedAt: first.receivedAt }).then(
      () => parts.forEach((p) => p.answer(ESME_ROK)),
      () => parts.forEach((p) => p.answer(ESME_RX_T_APPN)),
    );
  }

  /** Answers every held part with an error (on close): the carrier keeps them. */
  releaseAll(): void {
    for (const key of [...this.held.keys()]) this.expire(key);
  }

  private expire(key: string): void {
    const entry = this.held.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.held.delete(key);
    for (const part of entry.parts.values()) part.answer(ESME_RX_T_APPN);
  }
}
