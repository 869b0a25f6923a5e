import Fastify from 'fastify';
import type { RoutePolicy } from './route-policy';
import { RoutePolicies } from './route-policies';

const policy: RoutePolicy = {
  summary: 'Get a realtime app',
  tag: 'Realtime apps',
  auth: 'api',
  rateLimit: 'read',
  idempotent: false,
  paginated: false,
  errors: [],
};
const declared = [
  {
    method: 'GET',
    path: '/v1/realtime/apps/:realtime_app_id',
    policy,
    controller: 'C',
    handler: 'get',
  },
];

describe(RoutePolicies.name, () => {
  const policies = new RoutePolicies(declared);

  it('gives HEAD the GET route policy, and no other method one it did not declare', () => {
    expect(policies.find('HEAD', '/v1/realtime/apps/:realtime_app_id')).toBe(policy);
    expect(policies.find('GET', '/v1/realtime/apps/:realtime_app_id')).toBe(policy);
    expect(policies.find('DELETE', '/v1/realtime/apps/:realtime_app_id')).toBeUndefined();
    expect(policies.find('OPTIONS', '/v1/realtime/apps/:realtime_app_id')).toBeUndefined();
    expect(policies.find('GET', undefined)).toBeUndefined();
  });

  it('refuses to boot a Fastify route registered without a declared policy', async () => {
    const fastify = Fastify();
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) policies.assertServable(method, route.url ?? '');
    });
    fastify.get('/v1/realtime/apps/:realtime_app_id', () => ({}));
    expect(() => fastify.post('/v1/realtime/apps/:realtime_app_id', () => ({}))).toThrow(
      'POST /v1/realtime/apps/:realtime_app_id would be served without a declared route policy',
    );
    await fastify.close();
  });

  it('refuses a path parameter the gateway has no identifier rule for', () => {
    const withUnknown = new RoutePolicies([{ ...declared[0], path: '/v1/things/:thing_id' }]);
    expect(() => withUnknown.assertServable('GET', '/v1/things/:thing_id')).toThrow(
      'path parameter :thing_id is not declared in PATH_PARAMETERS',
    );
  });
});
