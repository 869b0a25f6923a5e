import {
  AppError,
  countLater,
  httpDuration,
  httpRequests,
  observeLater,
} from '@switchboard/platform';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../config/gateway.config';
import type { ResolvedRoute } from '../routes/resolved-routes';
import type { RoutePolicies } from '../routes/route-policies';
import type { RouteTable } from '../routes/route-table';
import { errorEnvelope, toAppError } from './error-envelope';
import type { ErrorResponder } from './error-envelope.filter';
import { newRequestId } from './request-id';
import { decorateRouteUrl, routeUrlOf } from './route-url';
import { CommonErrors } from '@switchboard/contracts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Scheme and host clients reach this API at: PUBLIC_URL, or the request's own. */
    publicOrigin: string;
    /** The JSON body holds `\\u` escapes, the only way it can carry NUL or a lone surrogate. */
    bodyHasEscapes?: boolean;
  }
}

export function fastifyOptions(config: GatewayConfig, errors: ErrorResponder) {
  return {
    // Failures Fastify answers itself (a malformed URL, an over-long path segment) and those of
    // Node's HTTP parser (headers too large) leave in the envelope like every other error.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) =>
      errors.reply(error, request, reply),
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) =>
      answerClientError(error, socket, errors.fallbackOrigin),
    genReqId: () => newRequestId(),
    requestIdHeader: false as const,
    bodyLimit: config.LARGE_BODY_LIMIT_BYTES,
    // Forwarded headers are the client's to forge unless a proxy in front sets them.
    trustProxy: config.TRUST_PROXY,
    return503OnClosing: true,
    // Tracked links carry their destination in a signed token (`/t/c/{token}`): a long URL
    // makes a long parameter. PATH_PARAMETERS bounds each parameter by name.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8000 },
  };
}

/**
 * The gateway's HTTP edges that run before Nest: request ids and log scope, per-route body
 * limits, JSON parsing, metrics and the route table used for 405 answers.
 */
export function configureFastify(
  fastify: FastifyInstance,
  config: GatewayConfig,
  routes: ResolvedRoute[],
  policies: RoutePolicies,
  routeTable: RouteTable,
): void {
  const largeBodyRoutes = new Set(
    routes.filter((r) => r.policy.bodyLimit === 'large').map((r) => `${r.method} ${r.path}`),
  );
  const limitFor = (request: FastifyRequest): number =>
    largeBodyRoutes.has(`${request.method} ${routeUrlOf(request)}`)
      ? config.LARGE_BODY_LIMIT_BYTES
      : config.BODY_LIMIT_BYTES;

  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      policies.assertServable(method, route.url ?? route.path);
      routeTable.add(method, route.url ?? route.path);
    }
  });

  decorateRouteUrl(fastify);
  fastify.decorateRequest('publicOrigin', {
    getter(this: FastifyRequest) {
      return config.PUBLIC_URL ?? `${this.protocol}://${this.host}`;
    },
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    const length = request.headers['content-length'];
    if (length !== undefined && Number(length) > limitFor(request)) {
      done(
        new AppError(CommonErrors.PayloadTooLarge, {
          message: `The request body is larger than ${limitFor(request)} bytes.`,
        }),
      );
      return;
    }
    done();
  });

  // Only JSON bodies are accepted; anything else is 415 before it reaches a handler.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (request, body: Buffer, done) => {
      if (body.length > limitFor(request)) {
        done(
          new AppError(CommonErrors.PayloadTooLarge, {
            message: `The request body is larger than ${limitFor(request)} bytes.`,
          }),
          undefined,
        );
        return;
      }
      // A compressed body read as JSON would be garbage taken at face value; none is decoded.
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
        done(
          new AppError(CommonErrors.UnsupportedMediaType, {
            message: 'Request bodies are taken as plain JSON, without a Content-Encoding.',
          }),
          undefined,
        );
        return;
      }
      if (body.length === 0) {
        done(null, undefined);
        return;
      }
      const text = body.toString('utf8');
      request.bodyHasEscapes = text.includes('\\u');
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new AppError(CommonErrors.MalformedJson), undefined);
      }
    },
  );

  // prom-client hashes label sets on every call; the children of each (method, route, status) are kept.
  const series = new Map<
    string,
    { count: { inc(): void }; duration: { observe(value: number): void } }
  >();
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = routeUrlOf(request) ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = series.get(key);
    if (!child) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      child = {
        count: countLater(httpRequests, labels),
        duration: observeLater(httpDuration, labels),
      };
      series.set(key, child);
    }
    child.count.inc();
    child.duration.observe(reply.elapsedTime / 1000);
    done();
  });
}

/** Answers a request Node's HTTP parser refused (no Fastify request exists) with the envelope. */
function answerClientError(error: Error & { code?: string }, socket: Socket, origin: string): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const requestId = newRequestId();
    const appError = toAppError(
      error.code === 'HPE_HEADER_OVERFLOW' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? error
        : { code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' },
    );
    const body = JSON.stringify(errorEnvelope(appError, requestId, origin));
    socket.write(
      `HTTP/1.1 ${appError.status} ${appError.name}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
