import type { ResolvedRoute } from './resolved-routes';
import type { RoutePolicy } from './route-policy';
import { PATH_PARAMETERS, pathParameterNames } from './path-parameters';

/**
 * The declared policy of every (method, route path), looked up without building a string per
 * request. `HEAD` is the `GET` route without its body, so it runs the `GET` route's whole policy
 * (authentication, role, rate limit, validation). Any other method has a policy only if declared.
 */
export class RoutePolicies {
  private readonly byMethod = new Map<string, Map<string, RoutePolicy>>();

  constructor(routes: ResolvedRoute[]) {
    for (const route of routes) {
      let byPath = this.byMethod.get(route.method);
      if (!byPath) this.byMethod.set(route.method, (byPath = new Map<string, RoutePolicy>()));
      byPath.set(route.path, route.policy);
    }
  }

  find(method: string, path: string | undefined): RoutePolicy | undefined {
    if (path === undefined) return undefined;
    return this.byMethod.get(method === 'HEAD' ? 'GET' : method)?.get(path);
  }

  /**
   * Refuses a route Fastify is about to serve without a declared policy, or with a path parameter
   * the gateway cannot check: called for every route as it is registered (controller and native
   * alike), so an undeclared route stops the boot instead of being served.
   */
  assertServable(method: string, path: string): void {
    if (!this.find(method, path)) {
      throw new Error(`${method} ${path} would be served without a declared route policy`);
    }
    for (const name of pathParameterNames(path)) {
      if (!PATH_PARAMETERS[name]) {
        throw new Error(
          `${method} ${path}: path parameter :${name} is not declared in PATH_PARAMETERS`,
        );
      }
    }
  }
}
