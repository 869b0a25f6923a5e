import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The matched route's path once read (undefined when no route matched); null before. */
    routeUrl: string | undefined | null;
  }
}

/** Gives every request the `routeUrl` slot `routeUrlOf` fills. */
export function decorateRouteUrl(fastify: FastifyInstance): void {
  fastify.decorateRequest('routeUrl', null);
}

/**
 * The path of the route a request matched (`/v1/items/:id`), read once: Fastify's
 * `request.routeOptions` builds a new object on every read, and the body limit, the route policy
 * and the metrics each need the path.
 */
export function routeUrlOf(request: FastifyRequest): string | undefined {
  if (request.routeUrl === null) request.routeUrl = request.routeOptions.url;
  return request.routeUrl;
}
