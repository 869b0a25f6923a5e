import { resolveDeclaredRoutes } from '@switchboard/app-gateway';
import { call } from '@switchboard/testing';
import type { ApiResponse } from '@switchboard/testing';
import type { TestPlatform } from './test-platform';
import { startTestPlatform } from './test-platform';

/** Every method a client can send; HEAD and OPTIONS included (Fastify adds HEAD to every GET). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Routes that answer without credentials, and what they answer then. */
const PUBLIC_ANSWERS = new Set(['none', 'session_login']);

/**
 * The route Fastify picks for a method and a literal path: the path itself, or a parameter route
 * that takes its segment (`GET /v1/contacts/batch` is `GET /v1/contacts/:contact_id`).
 */
function servingRoute(served: Set<string>, method: string, url: string): string | undefined {
  if (served.has(`${method} ${url}`)) return url;
  const segments = url.split('/');
  return [...served]
    .filter((key) => key.startsWith(`${method} `))
    .map((key) => key.slice(method.length + 1))
    .find((pattern) => {
      const parts = pattern.split('/');
      return (
        parts.length === segments.length &&
        parts.every((part, i) => part === segments[i] || part.startsWith(':'))
      );
    });
}

/** A well-formed identifier for every path parameter: the walk is about credentials, not ids. */
const concretePath = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, `x_${'0'.repeat(26)}`);

function expectEnvelope(response: ApiResponse, method: string, status: number, code?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  if (method === 'HEAD') return; // the status and headers of the GET answer, without its body
  const error = (response.body as { error: { code: string; request_id: string } }).error;
  expect(error.request_id).toBe(response.headers.get('x-request-id'));
  if (code) expect(error.code).toBe(code);
  else expect(error.code).toMatch(/^E\d{5}$/);
}

describe('the route table Fastify built, walked without credentials', () => {
  let platform: TestPlatform;
  let served: Set<string>;

  beforeAll(async () => {
    platform = await startTestPlatform();
    served = new Set(platform.routes.map((route) => `${route.method} ${route.url}`));
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('serves HEAD exactly where GET is served, and nothing answers OPTIONS', () => {
    const gets = platform.routes.filter((route) => route.method === 'GET').map((r) => r.url);
    const heads = platform.routes.filter((route) => route.method === 'HEAD').map((r) => r.url);
    expect(heads.sort()).toEqual(gets.sort());
    expect(platform.routes.some((route) => route.method === 'OPTIONS')).toBe(false);
  });

  it('has a declared policy for every route it serves, and serves every declared one', () => {
    const declared = new Set(resolveDeclaredRoutes().map((r) => `${r.method} ${r.path}`));
    for (const route of platform.routes) {
      expect(declared).toContain(`${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`);
    }
    for (const key of declared) expect(served).toContain(key);
  });

  it('answers every method on every path: 401 or the public answer where served, 405 with Allow elsewhere', async () => {
    const policies = new Map(resolveDeclaredRoutes().map((r) => [`${r.method} ${r.path}`, r]));
    const urls = [...new Set(platform.routes.map((route) => route.url))];
    let checked = 0;
    for (const url of urls) {
      for (const method of METHODS) {
        const response = await call(platform.base, method, concretePath(url));
        const serving = servingRoute(served, method, url);
        const route = policies.get(`${method === 'HEAD' ? 'GET' : method} ${serving ?? url}`);
        const context = `${method} ${url} -> ${response.status} ${JSON.stringify(response.body)}`;
        if (!serving) {
          expect({ context, status: response.status }).toEqual({ context, status: 405 });
          expectEnvelope(response, method, 405, 'E01007');
          expect(response.headers.get('allow')).toMatch(/^[A-Z, ]+$/);
        } else if (route && PUBLIC_ANSWERS.has(route.policy.auth)) {
          // A public route answers on its own terms, but never with a server error.
          expect({ context, serverError: response.status >= 500 }).toEqual({
            context,
            serverError: false,
          });
          if (response.status >= 400) expectEnvelope(response, method, response.status);
        } else {
          expect({ context, status: response.status }).toEqual({ context, status: 401 });
          expectEnvelope(response, method, 401);
        }
        checked++;
      }
    }
    expect(checked).toBe(urls.length * METHODS.length);
  });
});
