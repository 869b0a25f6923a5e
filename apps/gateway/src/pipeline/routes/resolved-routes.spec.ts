import { Controller, Get } from '@nestjs/common';
import { GATEWAY_CONTROLLERS } from '../../gateway.module';
import { assertEveryRouteDeclared, resolveDeclaredRoutes } from './resolved-routes';

describe('route policies', () => {
  it('refuses to boot a controller route that declares no policy', () => {
    @Controller('v1/things')
    class UndeclaredController {
      @Get()
      list() {
        return [];
      }
    }
    expect(() => assertEveryRouteDeclared([UndeclaredController])).toThrow(
      'UndeclaredController.list serves HTTP without a @Route policy',
    );
  });

  it('has a policy on every gateway route, with its method and full path resolved', () => {
    expect(() => assertEveryRouteDeclared(GATEWAY_CONTROLLERS)).not.toThrow();
    const routes = resolveDeclaredRoutes().map((route) => `${route.method} ${route.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /v1/workspace',
        'GET /v1/docs/search',
        'POST /admin/v1/workspaces/:workspace_id/api-keys',
        'GET /healthz',
      ]),
    );
  });

  it('ignores the query string only of the unauthenticated links that mail clients follow', () => {
    assertEveryRouteDeclared(GATEWAY_CONTROLLERS);
    const ignoring = resolveDeclaredRoutes().filter((route) => route.policy.ignoresQuery);
    expect(ignoring.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'GET /t/c/:tracking_token',
      'GET /t/o/:tracking_token',
      'GET /u/:unsubscribe_token',
      'POST /u/:unsubscribe_token',
    ]);
    for (const route of ignoring) {
      expect(route.policy).toMatchObject({ auth: 'none' });
      expect(route.policy.query).toBeUndefined();
    }
  });
});
