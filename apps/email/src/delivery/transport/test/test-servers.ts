import { createServer, Packet } from 'dns2';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { freePort } from '@switchboard/platform';

// dns2 3.0.0 (the last to support Node 20) has Packet.RCODE at run time but not in its types.
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const; // RFC 1035 4.1.1

/** One message a test SMTP server accepted. */
export interface ReceivedMessage {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  /** The name the client gave in EHLO/HELO. */
  helo: string;
}

/** An SMTP reply for RCPT TO or DATA: `code` and its text (which may start with an enhanced status). */
export interface Reply {
  code: number;
  message: string;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  messages: ReceivedMessage[];
  /** Connections opened, open now, and the most open at once. */
  connections: { opened: number; open: number; maxOpen: number };
  /** Transactions between MAIL FROM and the reply to DATA: now, and the most at once. */
  transactions: { active: number; maxActive: number };
  stop(): Promise<void>;
}

export interface TestSmtpOptions {
  /** The reply to RCPT TO for an address (lower-case); undefined accepts it. */
  rcpt?: (address: string) => Reply | undefined;
  /** The reply to the end of DATA; undefined accepts the message. */
  data?: () => Reply | undefined;
  /** Holds the reply to DATA this long, so transactions overlap (not a timing assertion). */
  dataDelayMs?: number;
  /** Address to listen on (default 127.0.0.1) and port (default a free one). */
  host?: string;
  port?: number;
  /** Refuses every connection with this greeting (e.g. 421). */
  greeting?: Reply;
}

/** A real SMTP server (smtp-server, no TLS, no AUTH) that records what it accepted. */
export async function startTestSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMessage[] = [];
  const connections = { opened: 0, open: 0, maxOpen: 0 };
  const transactions = { active: 0, maxActive: 0 };
  const inTransaction = new WeakSet<object>();
  const end = (session: SMTPServerSession) => {
    if (inTransaction.delete(session)) transactions.active--;
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 30 * 1024 * 1024,
    onConnect(_session, callback) {
      connections.opened++;
      connections.open++;
      connections.maxOpen = Math.max(connections.maxOpen, connections.open);
      callback(options.greeting ? replyError(options.greeting) : undefined);
    },
    onClose(session) {
      connections.open--;
      end(session);
    },
    onMailFrom(_address, session, callback) {
      if (!inTransaction.has(session)) {
        inTransaction.add(session);
        transactions.active++;
        transactions.maxActive = Math.max(transactions.maxActive, transactions.active);
      }
      callback();
    },
    onRcptTo(address, _session, callback) {
      const reply = options.rcpt?.(address.address.toLowerCase());
      callback(reply ? replyError(reply) : undefined);
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const finish = () => {
          end(session);
          const reply = options.data?.();
          if (reply) return callback(replyError(reply));
          messages.push({
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks),
            helo: session.hostNameAppearsAs,
          });
          callback();
        };
        if (options.dataDelayMs) setTimeout(finish, options.dataDelayMs);
        else finish();
      });
    },
  });
  server.on('error', () => undefined);
  const port = options.port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port,
    url: `smtp://${options.host ?? '127.0.0.1'}:${port}`,
    messages,
    connections,
    transactions,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function replyError(reply: Reply): Error {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

export type DnsRecord =
  | { type: 'A'; address: string }
  | { type: 'AAAA'; address: string }
  | { type: 'MX'; exchange: string; priority: number }
  | { type: 'TXT'; data: string };

/**
 * How the server answers one name: its records (a name without a record of the asked type
 * answers NOERROR with none: NODATA), or a failure. Unknown names are NXDOMAIN.
 */
export type DnsAnswer = DnsRecord[] | 'servfail' | 'nxdomain' | 'silent';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  address: string;
  set(name: string, answer: DnsAnswer): void;
  stop(): Promise<void>;
}

const TYPES: Record<DnsRecord['type'], number> = {
  A: Packet.TYPE.A,
  AAAA: Packet.TYPE.AAAA,
  MX: Packet.TYPE.MX,
  TXT: Packet.TYPE.TXT,
};

/** A real DNS server on UDP (dns2). TXT data goes out in 255-character strings, as zones do. */
export async function startTestDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, DnsAnswer>();
  const answerFor = (request: Packet): Packet | undefined => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const answer = zone.get(normalize(question.name)) ?? 'nxdomain';
    if (answer === 'silent') return undefined;
    if (answer === 'servfail' || answer === 'nxdomain') {
      response.header.rcode = answer === 'servfail' ? RCODE.SERVFAIL : RCODE.NXDOMAIN;
      return response;
    }
    for (const record of answer) {
      if (TYPES[record.type] !== question.type) continue;
      const { type, ...fields } = record;
      const data = record.type === 'TXT' ? { data: record.data.match(/.{1,255}/gs) ?? [''] } : {};
      const resource = { name: question.name, type: TYPES[type], class: Packet.CLASS.IN, ttl: 60 };
      // dns2's types ask for an encoder per record; its packet writer encodes plain objects.
      response.answers.push({ ...resource, ...fields, ...data } as unknown as Packet.Resource);
    }
    return response;
  };
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      const response = answerFor(request);
      if (response) void send(response);
    },
  });
  const port = await freePort();
  await server.listen({ udp: { port, address: '127.0.0.1' } });
  return {
    address: `127.0.0.1:${port}`,
    set: (name, answer) => zone.set(normalize(name), answer),
    stop: () => server.close(),
  };
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}
