import type { LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ServiceClient } from '@switchboard/platform';
import type { ReadinessCheck, TransportSettings } from '@switchboard/platform';
import type { GatewayConfig } from './config/gateway.config';
import { GATEWAY_CONTROLLERS, GatewayModule } from './gateway.module';
import { configureFastify, fastifyOptions } from './pipeline/http/configure-fastify';
import { ErrorResponder } from './pipeline/http/error-envelope.filter';
import { RoutePolicies } from './pipeline/routes/route-policies';
import { RouteTable } from './pipeline/routes/route-table';
import { PolicyPipeline } from './pipeline/routes/policy-pipeline';
import { registerWorkspaceRoutes } from './api/workspace/workspace.routes';
import { registerWhatsAppWebhookRoutes } from './api/whatsapp/whatsapp-webhooks.routes';
import { registerEmailTrackingRoutes } from './api/email/tracking.routes';
import { WorkspaceService } from './identity/workspace.service';
import { assertEveryRouteDeclared, resolveDeclaredRoutes } from './pipeline/routes/resolved-routes';

export interface RunningGateway {
  app: NestFastifyApplication;
  url: string;
  /** Every (method, path) Fastify serves, HEAD included: what route-table tests walk. */
  routes: ReadonlyArray<{ method: string; url: string }>;
  close(): Promise<void>;
}

/** Builds and starts the gateway on `config.PORT` with the given transport to the services. */
export async function createGateway(
  config: GatewayConfig,
  transport: TransportSettings,
  logger: LoggerService,
  /** What else /readyz checks: the embedded default's background thread. */
  readiness: ReadinessCheck[] = [],
): Promise<RunningGateway> {
  assertEveryRouteDeclared(GATEWAY_CONTROLLERS);
  const routes = resolveDeclaredRoutes();
  const edges = { routeTable: new RouteTable(), policies: new RoutePolicies(routes) };
  const errors = new ErrorResponder(config, edges.routeTable);
  const adapter = new FastifyAdapter(fastifyOptions(config, errors));
  configureFastify(adapter.getInstance(), config, routes, edges.policies, edges.routeTable);
  const services = new ServiceClient(transport, 'gateway');
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.register(config, services, { ...edges, errors }, readiness),
    adapter,
    {
      logger,
      bodyParser: false,
    },
  );
  // The policy hooks go on before Nest registers its routes (at listen), so every route gets them.
  const policy = app.get(PolicyPipeline);
  adapter.getInstance().addHook('preHandler', (request, reply, done) => {
    let answered: boolean | Promise<boolean>;
    try {
      answered = policy.preHandler(request, reply);
    } catch (err) {
      return done(err as Error);
    }
    // A request the pipeline answered itself (a replay) is already sent: its lifecycle ends here.
    if (answered instanceof Promise)
      answered.then(
        (sent) => !sent && done(),
        (err: Error) => done(err),
      );
    else if (!answered) done();
  });
  adapter.getInstance().addHook('onSend', (request, reply, payload, done) => {
    // Only a request holding an idempotency key has anything to record: the rest pass straight on.
    if (!request.idempotencyClaim) return done(null, payload);
    policy.onSend(request, reply, payload).then(
      (sent) => done(null, sent),
      (err: Error) => done(err),
    );
  });
  registerWorkspaceRoutes(adapter.getInstance(), app.get(WorkspaceService));
  registerWhatsAppWebhookRoutes(adapter.getInstance(), services, errors, config.BODY_LIMIT_BYTES);
  const trackingHits = registerEmailTrackingRoutes(
    adapter.getInstance(),
    services,
    errors,
    config.ENCRYPTION_KEY,
  );
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    routes: edges.routeTable.served(),
    close: async () => {
      await app.close();
      await trackingHits.drain();
      await services.close();
    },
  };
}
