import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FailurePlan,
  failureAnswer,
  invalidToken,
  MetaErrorAnswer,
} from './graph/graph-meta-errors';
import { route } from './graph/graph-routes';
import type { GraphState, RouteAnswer } from './graph/graph-routes';
import * as webhooks from './graph/graph-webhooks';
import type {
  GraphCall,
  GraphFailure,
  GraphSentMessage,
  GraphStandInOptions,
  SeedAccount,
  SeedMedia,
  SeedNumber,
  SeedTemplate,
  StoredTemplate,
  WebhookPostOptions,
  WebhookPostResult,
} from './graph/graph-stand-in.types';

export type * from './graph/graph-stand-in.types';
export * from './graph/graph-webhooks';

export interface GraphStandIn {
  /** The Graph base with its version, for `WHATSAPP_GRAPH_URL` (`http://127.0.0.1:<port>/v23.0`). */
  url: string;
  origin: string;
  port: number;
  accessToken: string;
  /** Every request, in arrival order. */
  calls: GraphCall[];
  /** The calls of one method whose path (without version) starts with `path` or matches it. */
  callsTo(method: string, path: string | RegExp): GraphCall[];
  /** Accepted `POST /{phone_number_id}/messages` (only those answered 200). */
  sent: GraphSentMessage[];
  sentFrom(phoneNumberId: string): GraphSentMessage[];
  clearCalls(): void;
  addAccount(account: SeedAccount): void;
  addNumber(number: SeedNumber): void;
  /** Returns the template as stored, with its `id` (given or generated). */
  addTemplate(wabaId: string, template: SeedTemplate): StoredTemplate;
  updateTemplate(wabaId: string, id: string, patch: Partial<SeedTemplate>): StoredTemplate;
  removeTemplate(wabaId: string, id: string): void;
  addMedia(media: SeedMedia): void;
  /** A seeded number as webhook payloads name it (`displayPhoneNumber` in digits, as Meta sends it). */
  webhookNumber(phoneNumberId: string): webhooks.WebhookNumber;
  /** Whether `POST /{waba_id}/subscribed_apps` was called for the account. */
  isSubscribed(wabaId: string): boolean;
  /** Whether the number was registered (seeded so, or `POST /{id}/register` succeeded). */
  isRegistered(phoneNumberId: string): boolean;
  /** The next `count` matching calls answer `failure`. */
  failNext(count: number, failure: GraphFailure): void;
  /** Every matching call answers `failure` for the next `ms` milliseconds. */
  failFor(ms: number, failure: GraphFailure): void;
  clearFailures(): void;
  /** Delay before every answer, in ms. */
  delayMs: number;
  postWebhook(
    url: string,
    payload: unknown,
    options: WebhookPostOptions,
  ): Promise<WebhookPostResult>;
  statusPayload: typeof webhooks.statusPayload;
  inboundTextPayload: typeof webhooks.inboundTextPayload;
  inboundMediaPayload: typeof webhooks.inboundMediaPayload;
  inboundReactionPayload: typeof webhooks.inboundReactionPayload;
  inboundInteractiveReplyPayload: typeof webhooks.inboundInteractiveReplyPayload;
  templateStatusPayload: typeof webhooks.templateStatusPayload;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  if (contentType?.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function answer(response: ServerResponse, call: GraphCall, result: RouteAnswer): void {
  call.status = result.status;
  if (result instanceof MetaErrorAnswer) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (result.retryAfter !== undefined) headers['retry-after'] = String(result.retryAfter);
    if (result.code === 190)
      headers['www-authenticate'] = 'OAuth "Facebook Platform" "invalid_token"';
    response.writeHead(result.status, headers).end(JSON.stringify(result.body()));
  } else if ('bytes' in result) {
    response.writeHead(result.status, { 'content-type': result.contentType }).end(result.bytes);
  } else {
    response
      .writeHead(result.status, { 'content-type': 'application/json' })
      .end(JSON.stringify(result.json));
  }
}

/**
 * A real HTTP server speaking Meta's Graph API (the endpoints of `WhatsAppGraph`) for tests: it
 * checks the Bearer token (401, code 190 otherwise), holds the accounts, numbers, templates and
 * media the test seeds (100/33 for unknown ids), hands out wamids, records every call, fails on
 * demand in Meta's error envelope, and posts webhooks signed as Meta signs them.
 */
export async function startGraphStandIn(options: GraphStandInOptions = {}): Promise<GraphStandIn> {
  const accessToken = options.accessToken ?? 'graph-test-token';
  const calls: GraphCall[] = [];
  const failures = new FailurePlan();
  const state: GraphState = {
    url: '',
    origin: '',
    accounts: new Map(),
    numbers: new Map(),
    templates: new Map(),
    media: new Map(),
    mediaUrls: new Map(),
    sent: [],
    templatePageSize: options.templatePageSize ?? 25,
    mediaUrlTtlMs: options.mediaUrlTtlMs ?? 5 * 60_000,
    checkTemplates: options.checkTemplates ?? false,
  };
  let templateIds = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const raw = await readBody(request);
    const call: GraphCall = {
      method: request.method ?? 'GET',
      path: url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, ''),
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body: parseBody(raw, request.headers['content-type']),
      status: 0,
      at: Date.now(),
    };
    calls.push(call);
    if (standIn.delayMs > 0) await sleep(standIn.delayMs);
    const failure = failures.take(call);
    if (failure) return answer(response, call, failureAnswer(failure));
    if (request.headers.authorization !== `Bearer ${accessToken}`)
      return answer(response, call, invalidToken());
    answer(response, call, route(state, call));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${port}`;
  state.url = `${state.origin}/${options.apiVersion ?? 'v23.0'}`;

  const templatesOf = (wabaId: string) => {
    const list = state.templates.get(wabaId) ?? [];
    state.templates.set(wabaId, list);
    return list;
  };
  const templateAt = (wabaId: string, id: string) => {
    const template = templatesOf(wabaId).find((candidate) => candidate.id === id);
    if (!template) throw new Error(`Graph stand-in: no template ${id} in ${wabaId}`);
    return template;
  };

  const standIn: GraphStandIn = {
    url: state.url,
    origin: state.origin,
    port,
    accessToken,
    calls,
    callsTo: (method, path) =>
      calls.filter(
        (call) =>
          call.method === method.toUpperCase() &&
          (typeof path === 'string' ? call.path.startsWith(path) : path.test(call.path)),
      ),
    sent: state.sent,
    sentFrom: (phoneNumberId) => state.sent.filter((sent) => sent.phoneNumberId === phoneNumberId),
    clearCalls: () => void calls.splice(0),
    addAccount: (account) =>
      void state.accounts.set(account.wabaId, { ...account, subscribed: false }),
    addNumber: (number) =>
      void state.numbers.set(number.phoneNumberId, {
        ...number,
        registered: number.registered ?? true,
      }),
    addTemplate: (wabaId, template) => {
      const stored = {
        ...template,
        id: template.id ?? String(1_700_000_000_000_000 + ++templateIds),
      };
      templatesOf(wabaId).push(stored);
      return stored;
    },
    updateTemplate: (wabaId, id, patch) => Object.assign(templateAt(wabaId, id), patch),
    removeTemplate: (wabaId, id) => {
      const list = templatesOf(wabaId);
      list.splice(list.indexOf(templateAt(wabaId, id)), 1);
    },
    addMedia: (media) => void state.media.set(media.id, media),
    webhookNumber: (phoneNumberId) => {
      const number = state.numbers.get(phoneNumberId);
      if (!number) throw new Error(`Graph stand-in: no number ${phoneNumberId}`);
      const displayPhoneNumber = number.displayPhoneNumber.replace(/\D/g, '');
      return { wabaId: number.wabaId, phoneNumberId, displayPhoneNumber };
    },
    isSubscribed: (wabaId) => state.accounts.get(wabaId)?.subscribed ?? false,
    isRegistered: (phoneNumberId) => state.numbers.get(phoneNumberId)?.registered ?? false,
    failNext: (count, failure) => failures.failNext(count, failure),
    failFor: (ms, failure) => failures.failFor(ms, failure),
    clearFailures: () => failures.clear(),
    delayMs: options.delayMs ?? 0,
    postWebhook: webhooks.postWebhook,
    statusPayload: webhooks.statusPayload,
    inboundTextPayload: webhooks.inboundTextPayload,
    inboundMediaPayload: webhooks.inboundMediaPayload,
    inboundReactionPayload: webhooks.inboundReactionPayload,
    inboundInteractiveReplyPayload: webhooks.inboundInteractiveReplyPayload,
    templateStatusPayload: webhooks.templateStatusPayload,
    waitFor: async (predicate, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error('Graph stand-in: condition not met in time');
        await sleep(20);
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
