import { createParamDecorator } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import type { CallerKind, RequestContext, Role } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';

/** Who the gateway authenticated for this request. */
export interface Caller {
  kind: CallerKind;
  id?: string;
  role?: Role;
  workspaceId?: string;
  organizationId?: string;
  region?: string;
  /** Session callers only: the hash of the CSRF token issued at login. */
  csrfHash?: Buffer;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
    validatedBody?: unknown;
    validatedQuery?: unknown;
  }
}

export const ANONYMOUS: Caller = { kind: 'anonymous' };

/** The request body after the route's DTO validated it. */
export const ValidBody = createParamDecorator((_: unknown, context: ExecutionContext): unknown => {
  return context.switchToHttp().getRequest<FastifyRequest>().validatedBody;
});

/** The query after the route's DTO validated it. */
export const ValidQuery = createParamDecorator((_: unknown, context: ExecutionContext): unknown => {
  return context.switchToHttp().getRequest<FastifyRequest>().validatedQuery;
});

/** The request's RequestContext, for controllers that forward to a service. */
export const CallContext = createParamDecorator(
  (_: unknown, context: ExecutionContext): RequestContext =>
    requestContextFor(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** The context a request carries to the services over the transport. */
export function requestContextFor(request: FastifyRequest): RequestContext {
  const caller = request.caller ?? ANONYMOUS;
  const idempotencyKey = request.headers['idempotency-key'];
  return {
    requestId: request.id,
    workspaceId: caller.workspaceId,
    organizationId: caller.organizationId,
    caller: { kind: caller.kind, id: caller.id, role: caller.role },
    idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
    idempotencyFingerprint: request.idempotencyFingerprint,
    publicOrigin: request.publicOrigin,
  };
}
