import { headers as natsHeaders } from '@nats-io/transport-node';
import type { Msg, MsgHdrs } from '@nats-io/transport-node';

/*
 * What a request and its reply look like on NATS, for ServiceClient and NatsServer alike:
 * - request: the payload as JSON (empty when there is none), the RequestContext as headers
 *   (`contextToHeaders`);
 * - reply: `{"r": <reply>}` when the handler answered, `{"e": <TransportError>}` when it failed
 *   (the envelope's code, message and details that AppError.fromTransport rebuilds).
 */

export type WireReply = { r?: unknown; e?: unknown };

export function encodeRequest(payload: unknown): string {
  return payload === undefined ? '' : JSON.stringify(payload);
}

export function decodeRequest(msg: Msg): unknown {
  return msg.data.length ? msg.json() : undefined;
}

export function encodeReply(reply: unknown): string {
  return JSON.stringify({ r: reply });
}

export function encodeFailure(error: unknown): string {
  return JSON.stringify({ e: error });
}

export function decodeReply(msg: Msg): WireReply {
  return msg.json<WireReply>();
}

export function toNatsHeaders(headers: Record<string, string>): MsgHdrs {
  const set = natsHeaders();
  for (const name in headers) set.set(name, headers[name]);
  return set;
}
