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
  | 'realtime_publish'
  | 'admin'
  | 'auth'
  | 'docs'
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
  body?: Constructor;
  /** The success answer; `schema` (a JSON Schema) is published and, on native routes, serializes it. */
  response?: { status: number; description: string; schema?: JsonSchema };
  /** Error statuses the operation declares, for the OpenAPI document. */
  errors: readonly number[];
  /** Body limit in bytes when it differs from the default (email send and batch). */
  bodyLimit?: 'default' | 'large';
}

export const ROUTE_POLICY = 'switchboard:route-policy';

/** Registry the OpenAPI generator reads: every decorated handler with its class. */
export const declaredRoutes: Array<{
  controller: Constructor;
  handler: string;
  policy: RoutePolicy;
}> = [];

export function Route(policy: RoutePolicy): MethodDecorator {
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
 * A route served by Fastify directly, without Nest's per-request machinery, for the hottest reads
 * of the gateway's own data. It gets the same policy pipeline, OpenAPI entry and 405 handling.
 */
export interface NativeRouteDeclaration {
  method: 'GET';
  path: string;
  /** Names the operation as `<area>_<action>`, like controller routes. */
  area: string;
  action: string;
  policy: RoutePolicy;
}

export const declaredNativeRoutes: NativeRouteDeclaration[] = [];

export function declareNativeRoute(declaration: NativeRouteDeclaration): NativeRouteDeclaration {
  declaredNativeRoutes.push(declaration);
  return declaration;
}
