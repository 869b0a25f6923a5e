import { AppError, httpDuration, httpRequests } from '@switchboard/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../config/gateway.config';
import type { ResolvedRoute } from '../routes/resolved-routes';
import { newRequestId } from './request-id';
import type { RouteTable } from '../routes/route-table';

declare module 'fastify' {
  interface FastifyRequest {
    /** Scheme and host clients reach this API at: PUBLIC_URL, or the request's own. */
    publicOrigin: string;
  }
}

export function fastifyOptions(config: GatewayConfig) {
  return {
    genReqId: () => newRequestId(),
    requestIdHeader: false as const,
    bodyLimit: config.LARGE_BODY_LIMIT_BYTES,
    // Forwarded headers are the client's to forge unless a proxy in front sets them.
    trustProxy: config.TRUST_PROXY,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
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
  routeTable: RouteTable,
): void {
  const largeBodyRoutes = new Set(
    routes.filter((r) => r.policy.bodyLimit === 'large').map((r) => `${r.method} ${r.path}`),
  );
  const limitFor = (request: FastifyRequest): number =>
    largeBodyRoutes.has(`${request.method} ${request.routeOptions.url}`)
      ? config.LARGE_BODY_LIMIT_BYTES
      : config.BODY_LIMIT_BYTES;

  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.add(method, route.url ?? route.path);
  });

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
        new AppError('E01003', {
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
          new AppError('E01003', {
            message: `The request body is larger than ${limitFor(request)} bytes.`,
          }),
          undefined,
        );
        return;
      }
      if (body.length === 0) {
        done(null, undefined);
        return;
      }
      try {
        done(null, JSON.parse(body.toString('utf8')));
      } catch {
        done(new AppError('E01002'), undefined);
      }
    },
  );

  // prom-client hashes label sets on every call; the children of each (method, route, status) are kept.
  const series = new Map<
    string,
    { count: { inc(): void }; duration: { observe(value: number): void } }
  >();
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = series.get(key);
    if (!child) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      child = { count: httpRequests.labels(labels), duration: httpDuration.labels(labels) };
      series.set(key, child);
    }
    child.count.inc();
    child.duration.observe(reply.elapsedTime / 1000);
    done();
  });
}
