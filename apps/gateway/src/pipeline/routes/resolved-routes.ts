import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { completePolicy, declaredNativeRoutes, declaredRoutes, ROUTE_POLICY } from './route-policy';
import type { RoutePolicy } from './route-policy';

export interface ResolvedRoute {
  method: string;
  /** Fastify-style path (`/v1/items/:id`). */
  path: string;
  policy: RoutePolicy;
  controller: string;
  handler: string;
}

function joinPath(...parts: Array<string | undefined>): string {
  const joined = parts
    .filter((part) => part && part !== '/')
    .map((part) => String(part).replace(/^\/|\/$/g, ''))
    .join('/');
  return `/${joined}`;
}

/** The declared routes with the method and full path they are served at (Nest or native). */
export function resolveDeclaredRoutes(): ResolvedRoute[] {
  const native: ResolvedRoute[] = declaredNativeRoutes.map(
    ({ method, path, area, action, policy }) => ({
      method,
      path,
      policy: completePolicy(method, path, policy),
      controller: area,
      handler: action,
    }),
  );
  return native.concat(
    declaredRoutes.map(({ controller, handler, policy }) => {
      const fn = (controller.prototype as Record<string, unknown>)[handler] as object;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod];
      const path = joinPath(
        Reflect.getMetadata(PATH_METADATA, controller) as string,
        Reflect.getMetadata(PATH_METADATA, fn) as string,
      );
      return {
        method,
        path,
        policy: completePolicy(method, path, policy),
        controller: controller.name,
        handler,
      };
    }),
  );
}

/**
 * Refuses to boot when a controller method serves HTTP without a `@Route` policy: a route
 * cannot exist without declaring its credential, rate-limit group, idempotency and pagination.
 */
export function assertEveryRouteDeclared(
  controllers: Array<new (...args: never[]) => object>,
): void {
  for (const controller of controllers) {
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      if (name === 'constructor') continue;
      const fn = (controller.prototype as Record<string, unknown>)[name];
      if (typeof fn !== 'function' || Reflect.getMetadata(METHOD_METADATA, fn) === undefined)
        continue;
      if (!Reflect.getMetadata(ROUTE_POLICY, fn)) {
        throw new Error(`${controller.name}.${name} serves HTTP without a @Route policy`);
      }
    }
  }
}
