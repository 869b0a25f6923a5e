/**
 * Every (method, path pattern) the gateway serves, collected as Fastify registers them, so a
 * request that matches a path under another method can be answered 405 with `Allow`.
 */
export class RouteTable {
  private readonly routes: Array<{ method: string; pattern: RegExp; url: string }> = [];
  private readonly registered: Array<{ method: string; url: string }> = [];

  add(method: string, url: string): void {
    this.registered.push({ method, url });
    // HEAD comes with every GET (Allow names it there); nothing registers OPTIONS.
    if (method === 'HEAD' || method === 'OPTIONS') return;
    const pattern = new RegExp(
      `^${url
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[^/]+/g, '[^/]+')
        .replace(/\*/g, '.*')}/?$`,
    );
    this.routes.push({ method, pattern, url });
  }

  methodsFor(path: string): string[] {
    const methods = this.routes
      .filter((route) => route.pattern.test(path))
      .map((route) => route.method);
    if (methods.includes('GET')) methods.push('HEAD');
    return [...new Set(methods)].sort();
  }

  /** Every route Fastify registered, HEAD included, as it registered them. */
  served(): ReadonlyArray<{ method: string; url: string }> {
    return this.registered;
  }
}
