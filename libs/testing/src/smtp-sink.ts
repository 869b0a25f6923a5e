import { SMTPServer } from 'smtp-server';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { freePort } from '@switchboard/platform';

/** One message as the sink accepted it (after it answered 250 to DATA). */
export interface SunkMessage {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  /** The Message-ID header without angle brackets. */
  messageId: string;
  /** When the sink answered 250 (ms since the epoch). */
  acceptedAt: number;
}

/** An SMTP reply the sink gives to RCPT TO for one address: `times` times, then it accepts. */
export interface RcptRule {
  code: number;
  message: string;
  times?: number;
}

export interface SmtpSink {
  port: number;
  url: string;
  messages: SunkMessage[];
  /** Message-ID -> how many times it was accepted. */
  counts(): Map<string, number>;
  /** Sets the RCPT reply for an address (lowercased). */
  rule(address: string, rule: RcptRule): void;
  /** Holds every DATA reply from now on until `release()`: in-flight deliveries then wait. */
  hold(): void;
  /** Starts holding once this many messages were accepted (from then on, as `hold`). */
  holdAfter(accepted: number): void;
  release(): void;
  /**
   * Stops holding and forgets the held transactions without answering them: their sender was
   * killed, so they never completed (whether or not this server has seen their connections close).
   */
  discardHeld(): void;
  /** DATA transactions currently held (their senders wait for the reply). */
  held(): number;
  sessions: { opened: number; concurrent: number; maxConcurrent: number };
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real SMTP server for tests (smtp-server, no TLS, any sender): it records what it accepted,
 * answers RCPT per address as told (550, 451 once...), and can hold DATA replies so a test can
 * kill a sender while its transactions are in flight. A transaction whose connection closed
 * before the reply was sent is not recorded: the sender never learned it was accepted.
 */
export async function startSmtpSink(port?: number): Promise<SmtpSink> {
  const messages: SunkMessage[] = [];
  const rules = new Map<string, RcptRule & { used: number }>();
  const sessions = { opened: 0, concurrent: 0, maxConcurrent: 0 };
  const closed = new Set<string>();
  let holding = false;
  let holdAt = Infinity;
  let waiting: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 30 * 1024 * 1024,
    onConnect(_session, callback) {
      sessions.opened++;
      sessions.concurrent++;
      sessions.maxConcurrent = Math.max(sessions.maxConcurrent, sessions.concurrent);
      callback();
    },
    onClose(session) {
      sessions.concurrent--;
      closed.add(session.id);
    },
    onRcptTo(address, _session, callback) {
      const rule = rules.get(address.address.toLowerCase());
      if (rule && (rule.times === undefined || rule.used < rule.times)) {
        rule.used++;
        const error = new Error(rule.message) as Error & { responseCode: number };
        error.responseCode = rule.code;
        return callback(error);
      }
      callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const accept = () => {
          if (closed.has(session.id)) return;
          const raw = Buffer.concat(chunks);
          const header = raw.toString('utf8', 0, Math.min(raw.length, 64 * 1024));
          const match = /^message-id:\s*<([^>]+)>/im.exec(header);
          messages.push({
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
            messageId: match ? match[1] : '',
            acceptedAt: Date.now(),
          });
          callback();
        };
        if (messages.length >= holdAt) holding = true;
        if (holding) waiting.push(accept);
        else accept();
      });
    },
  });
  const listenPort = port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve());
  });
  server.on('error', () => undefined);
  return {
    port: listenPort,
    url: `smtp://127.0.0.1:${listenPort}`,
    messages,
    sessions,
    counts() {
      const counts = new Map<string, number>();
      for (const message of messages)
        counts.set(message.messageId, (counts.get(message.messageId) ?? 0) + 1);
      return counts;
    },
    rule(address, rule) {
      rules.set(address.toLowerCase(), { ...rule, used: 0 });
    },
    hold() {
      holding = true;
    },
    holdAfter(accepted) {
      holdAt = accepted;
    },
    release() {
      holding = false;
      holdAt = Infinity;
      const pending = waiting;
      waiting = [];
      for (const accept of pending) accept();
    },
    discardHeld() {
      holding = false;
      holdAt = Infinity;
      waiting = [];
    },
    held: () => waiting.length,
    async waitFor(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error('timed out waiting for the SMTP sink');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
