import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { serviceTypeOrmOptions } from '@switchboard/persistence';
import type { ServiceClient } from '@switchboard/platform';
import { AdminController } from './admin/admin.controller';
import { AdminService } from './admin/admin.service';
import { Authenticator } from './auth/authenticator';
import { CredentialCache } from './auth/credential-cache';
import { GATEWAY_CONFIG } from './config/gateway.config';
import type { GatewayConfig } from './config/gateway.config';
import { gatewayDatabase } from './database/gateway.database';
import { DocsController } from './docs/docs.controller';
import { HealthController } from './health/health.controller';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter';
import { RouteTable } from './http/route-table';
import { IdentityRepository } from './identity/identity.repository';
import { OpenApiController } from './openapi/openapi.controller';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';
import { SERVICE_CLIENT } from './transport/service-client.provider';
import { RealtimeAppsController } from './realtime/realtime-apps.controller';
import { IdempotencyGate } from './idempotency/idempotency-gate';
import { PolicyPipeline } from './policy/policy-pipeline';
import { rateLimitProviders } from './rate-limits/rate-limit.providers';
import { IdempotencyPurger } from './idempotency/idempotency-purger';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { WorkspaceService } from './workspace/workspace.service';
import { CURRENT_WORKSPACE } from './workspace/workspace.routes';

export const GATEWAY_CONTROLLERS = [
  HealthController,
  OpenApiController,
  AdminController,
  SessionsController,
  DocsController,
  RealtimeAppsController,
];

/** Routes Fastify serves directly (registered by createGateway), declared like the others. */
export const GATEWAY_NATIVE_ROUTES = [CURRENT_WORKSPACE];

/** The gateway: authentication, route policies and the error envelope in front of the services. */
@Module({})
export class GatewayModule {
  static register(
    config: GatewayConfig,
    services: ServiceClient,
    routeTable: RouteTable,
  ): DynamicModule {
    return {
      module: GatewayModule,
      imports: [TypeOrmModule.forRoot(serviceTypeOrmOptions(gatewayDatabase(config)))],
      controllers: GATEWAY_CONTROLLERS,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: SERVICE_CLIENT, useValue: services },
        { provide: RouteTable, useValue: routeTable },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        IdempotencyStore,
        IdempotencyGate,
        PolicyPipeline,
        ...rateLimitProviders(config.RATE_LIMITS, {
          overridesTtlMs: config.RATE_LIMIT_OVERRIDES_TTL_MS,
        }),
        IdempotencyPurger,
        IdentityRepository,
        CredentialCache,
        Authenticator,
        AdminService,
        SessionsService,
        WorkspaceService,
      ],
    };
  }
}
