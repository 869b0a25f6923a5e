import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One channel of the legacy source (spec "Legacy channel list"). */
export interface LegacyChannel {
  id: string;
  name: string;
  /** Not part of the answer: `?platform=` filters on it (default `whatsapp`). */
  platform?: string;
  settings: {
    waba_id: string;
    msisdn: string;
    phone_number_id: string;
    pin: string;
    display_name: string;
  };
}

export interface LegacyChannelSourceCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface LegacyChannelSource {
  /** For `CP_URL`: `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  calls: LegacyChannelSourceCall[];
  /** The channels served; a test may push or splice. */
  channels: LegacyChannel[];
  stop(): Promise<void>;
}

/**
 * The legacy connectivity platform's channel list for tests: `GET /v1/channels?limit&offset&platform`
 * with `Authorization: AccessKey <key>` (401 otherwise) answers `{count, channels}` (count: every
 * matching channel, the page: `limit` from `offset`).
 */
export async function startLegacyChannelSource(input: {
  accessKey: string;
  channels: LegacyChannel[];
}): Promise<LegacyChannelSource> {
  const calls: LegacyChannelSourceCall[] = [];
  const channels = [...input.channels];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://legacy');
    const call: LegacyChannelSourceCall = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      status: 0,
    };
    calls.push(call);
    const reply = (status: number, body: unknown) => {
      call.status = status;
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    request.resume();
    if (request.headers.authorization !== `AccessKey ${input.accessKey}`)
      return reply(401, {
        errors: [{ code: 2, description: 'Request not allowed (incorrect access_key)' }],
      });
    if (call.method !== 'GET' || url.pathname.replace(/\/$/, '') !== '/v1/channels')
      return reply(404, { errors: [{ code: 20, description: 'Not found' }] });
    const platform = call.query.platform;
    const matching = channels.filter(
      (channel) => !platform || (channel.platform ?? 'whatsapp') === platform,
    );
    const offset = Math.max(0, Number(call.query.offset) || 0);
    const limit = Math.max(1, Number(call.query.limit) || 20);
    reply(200, {
      count: matching.length,
      channels: matching
        .slice(offset, offset + limit)
        .map(({ id, name, settings }) => ({ id, name, settings })),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    channels,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
