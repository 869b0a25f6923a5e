import { completePolicy, routeErrors } from './route-policy';
import type { RouteDeclaration } from './route-policy';

const read: RouteDeclaration = {
  summary: 'Get a thing',
  tag: 'Things',
  auth: 'api',
  role: 'read',
  rateLimit: 'read',
};

describe(completePolicy.name, () => {
  it('makes every method but GET idempotent unless the route says otherwise', () => {
    expect(completePolicy('GET', '/v1/things', read).idempotent).toBe(false);
    expect(completePolicy('POST', '/v1/things', { ...read, role: 'write' }).idempotent).toBe(true);
    expect(completePolicy('POST', '/v1/session', { ...read, idempotent: false }).idempotent).toBe(
      false,
    );
    expect(completePolicy('GET', '/v1/things', read).paginated).toBe(false);
  });

  it('adds the statuses particular to a route to those its policy implies', () => {
    const policy = completePolicy('GET', '/v1/things/:thing_id/content', {
      ...read,
      errors: [425, 410],
    });
    expect(policy.errors).toEqual([400, 401, 403, 404, 410, 421, 422, 425, 429, 500, 503]);
  });
});

describe(routeErrors.name, () => {
  it('implies 404 from a path parameter, 409 from idempotency and 413 from a body', () => {
    const base = { ...read, idempotent: false, paginated: false };
    expect(routeErrors('/v1/things', base)).not.toContain(404);
    expect(routeErrors('/v1/things/:thing_id', base)).toContain(404);
    expect(routeErrors('/v1/things', { ...base, idempotent: true })).toContain(409);
    expect(routeErrors('/v1/things', { ...base, body: class Body {} })).toContain(413);
  });

  it('declares no credential errors on an open route', () => {
    const open = { ...read, auth: 'none' as const, role: undefined, rateLimit: 'none' as const };
    expect(routeErrors('/healthz', { ...open, idempotent: false, paginated: false })).toEqual([
      400, 422, 500, 503,
    ]);
  });
});
