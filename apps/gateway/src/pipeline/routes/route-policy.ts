import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { Role } from '@switchboard/contracts';
import type { JsonSchema } from '../openapi/dto-schema';

/** Which credential a route accepts. */
export type RouteAuth = 'api' | 'access_key' | 'operator' | 'none' | 'session_login';

/** Rate-limit groups; every route names the one it spends (enforced with the limiter). */
export type RateLimitGroup =
  | 'api_list'
  | 'read'
  | 'write'
  | 'email_send'
  | 'email_batch'
  | 'sms_send'
  | 'sms_batch'
  | 'whatsapp_send'
  | 'realtime_publish'
  | 'admin'
  | 'auth'
  | 'docs'
  | 'tracking'
  | 'unsubscribe'
  | 'none';

type Constructor = new (...args: never[]) => object;

/**
 * Everything the gateway must know about a route before it can be registered. Every controller
 * method carries one (checked at boot), so a route cannot exist without declaring its
 * credential, role, rate-limit group, idempotency and pagination.
 */
export interface RoutePolicy {
  summary: string;
  tag: string;
  auth: RouteAuth;
  /** Lowest role allowed; `read` routes must be GET. */
  role?: Role;
  rateLimit: RateLimitGroup;
  idempotent: boolean;
  paginated: boolean;
  query?: Constructor;
  /**
   * The query string is not ours and is ignored: links followed by mail clients, inbox proxies
   * and link scanners, which may append parameters of their own (utm tags, cache busters).
   */
  ignoresQuery?: true;
  body?: Constructor;
  /** The success answer; `schema` (a JSON Schema) is published and, on native routes, serializes it. */
  response?: { status: number; description: string; schema?: JsonSchema };
  /** Error statuses the operation answers with, for the OpenAPI document (see routeErrors). */
  errors: readonly number[];
  /** Body limit in bytes when it differs from the default (email send and batch). */
  bodyLimit?: 'default' | 'large';
}

/**
 * What a controller writes on a route. What follows from the rest is left out and completed once
 * per route when the table is resolved (completePolicy): idempotency (every method but GET),
 * pagination (off) and the error statuses the policy implies.
 */
export interface RouteDeclaration extends Omit<RoutePolicy, 'idempotent' | 'paginated' | 'errors'> {
  idempotent?: boolean;
  paginated?: boolean;
  /** Statuses particular to this operation, beyond those its policy implies (402, 410, 425...). */
  errors?: readonly number[];
}

/**
 * The error statuses every route with this policy can answer: 400 (malformed input), 422 (an
 * unknown query parameter is refused by name on every route), 500 and 503 (a dependency away)
 * anywhere; 401 and 403 behind a credential, 421 for an API key of another region; 404 with a path
 * parameter; 409 with an Idempotency-Key; 413 with a body; 429 when rate limited.
 */
export function routeErrors(path: string, policy: Omit<RoutePolicy, 'errors'>): number[] {
  const statuses = new Set([400, 422, 500, 503]);
  if (policy.auth !== 'none') statuses.add(401);
  if (policy.role || policy.auth === 'operator') statuses.add(403);
  if (policy.auth === 'api') statuses.add(421);
  if (path.includes(':')) statuses.add(404);
  if (policy.idempotent) statuses.add(409);
  if (policy.body) statuses.add(413);
  if (policy.rateLimit !== 'none') statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** The full policy of a declared route served with `method` at `path`. */
export function completePolicy(
  method: string,
  path: string,
  declaration: RouteDeclaration,
): RoutePolicy {
  const base = {
    ...declaration,
    idempotent: declaration.idempotent ?? method !== 'GET',
    paginated: declaration.paginated ?? false,
  };
  const errors = new Set([...routeErrors(path, base), ...(declaration.errors ?? [])]);
  return { ...base, errors: [...errors].sort((a, b) => a - b) };
}

export const ROUTE_POLICY = 'switchboard:route-policy';

/** Registry the OpenAPI generator reads: every decorated handler with its class. */
export const declaredRoutes: Array<{
  controller: Constructor;
  handler: string;
  policy: RouteDeclaration;
}> = [];

export function Route(policy: RouteDeclaration): MethodDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_POLICY, policy),
    (target: object, handler: string | symbol) => {
      declaredRoutes.push({
        controller: target.constructor as Constructor,
        handler: String(handler),
        policy,
      });
    },
  );
}

/**
 * A route served by Fastify directly, without Nest's per-request machinery: the hottest reads of
 * the gateway's own data, and Meta's webhooks (whose raw body bytes must reach the signature
 * check). It gets the same policy pipeline, OpenAPI entry and 405 handling.
 */
export interface NativeRouteDeclaration {
  method: 'GET' | 'POST';
  path: string;
  /** Names the operation as `<area>_<action>`, like controller routes. */
  area: string;
  action: string;
  policy: RouteDeclaration;
}

export const declaredNativeRoutes: NativeRouteDeclaration[] = [];

export function declareNativeRoute(declaration: NativeRouteDeclaration): NativeRouteDeclaration {
  declaredNativeRoutes.push(declaration);
  return declaration;
}
