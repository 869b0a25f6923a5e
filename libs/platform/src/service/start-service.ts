import type { DynamicModule, INestApplicationContext, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ServiceName } from '@switchboard/contracts';
import { RpcErrorFilter } from '../errors/rpc-error.filter';
import { InProcessServer } from '../transport/in-process.server';
import { NatsServer } from '../transport/nats.server';
import type { TransportSettings } from '../transport/transport.options';

export interface StartServiceOptions {
  name: ServiceName;
  module: DynamicModule;
  transport: TransportSettings;
  logger: LoggerService;
  /** Port of the service's own /healthz and /readyz; distributed mode only. */
  httpPort?: number;
}

/**
 * Boots one service with the same handlers in either mode: on the in-process bus in the embedded
 * default, or on NATS (queue group per service) with its own health port. (Its metrics port is the
 * process's: see runServiceProcess.)
 */
export async function startService(options: StartServiceOptions): Promise<INestApplicationContext> {
  const { name, module, transport, logger } = options;
  if (transport.kind === 'in-process') {
    // The in-process server records the RPC metrics itself: no interceptor chain per request.
    const service = await NestFactory.createMicroservice(module, {
      strategy: new InProcessServer(transport.bus, name),
      logger,
    });
    service.useGlobalFilters(new RpcErrorFilter());
    service.enableShutdownHooks();
    await service.listen();
    return service;
  }
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), {
    logger,
  });
  // Globals are set on the app and inherited: a connected microservice is already initialised.
  // The NATS server records the RPC metrics itself, as the in-process one does.
  app.useGlobalFilters(new RpcErrorFilter());
  app.connectMicroservice(
    { strategy: new NatsServer(transport.url, name) },
    { inheritAppConfig: true },
  );
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  await app.listen(options.httpPort ?? 0, '0.0.0.0');
  return app;
}
