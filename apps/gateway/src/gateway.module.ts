import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ServiceDataModule } from '@switchboard/persistence';
import type { ServiceClient } from '@switchboard/platform';
import { AdminController } from './api/admin/admin.controller';
import { AdminService } from './identity/admin.service';
import { Authenticator } from './pipeline/auth/authenticator';
import { CredentialCache } from './pipeline/auth/credential-cache';
import { GATEWAY_CONFIG } from './config/gateway.config';
import type { GatewayConfig } from './config/gateway.config';
import { gatewayDatabase } from './database/gateway.database';
import { DocsController } from './api/docs/docs.controller';
import { HealthController } from './api/operations/health.controller';
import { ErrorEnvelopeFilter, ErrorResponder } from './pipeline/http/error-envelope.filter';
import { RoutePolicies } from './pipeline/routes/route-policies';
import { RouteTable } from './pipeline/routes/route-table';
import { IdentityRepository } from './identity/identity.repository';
import { OpenApiController } from './api/operations/openapi.controller';
import { SessionsController } from './api/sessions/sessions.controller';
import { SessionsService } from './identity/sessions.service';
import { SERVICE_CLIENT } from './pipeline/service-client.provider';
import { RealtimeAppsController } from './api/realtime/realtime-apps.controller';
import { SuppressionsController } from './api/email/suppressions.controller';
import { DomainsController } from './api/email/domains.controller';
import { WebhooksController } from './api/webhooks/webhooks.controller';
import { RealtimeEventsController } from './api/realtime/realtime-events.controller';
import { MessagesController } from './api/email/messages.controller';
import { AudiencesController } from './api/contacts/audiences.controller';
import { ContactPropertiesController } from './api/contacts/contact-properties.controller';
import { ContactsController } from './api/contacts/contacts.controller';
import { OnboardingRecipients } from './api/email/onboarding-recipients';
import { IdempotencyGate } from './pipeline/idempotency/idempotency-gate';
import { PolicyPipeline } from './pipeline/routes/policy-pipeline';
import { rateLimitProviders } from './pipeline/rate-limits/rate-limit.providers';
import { IdempotencyKeysRepository } from './pipeline/idempotency/idempotency-keys.repository';
import { IdempotencyStore } from './pipeline/idempotency/idempotency.store';
import { WorkspaceService } from './identity/workspace.service';
import { CURRENT_WORKSPACE } from './api/workspace/workspace.routes';

export const GATEWAY_CONTROLLERS = [
  HealthController,
  OpenApiController,
  AdminController,
  SessionsController,
  DocsController,
  RealtimeAppsController,
  SuppressionsController,
  DomainsController,
  WebhooksController,
  RealtimeEventsController,
  MessagesController,
  ContactsController,
  ContactPropertiesController,
  AudiencesController,
];

/** Routes Fastify serves directly (registered by createGateway), declared like the others. */
export const GATEWAY_NATIVE_ROUTES = [CURRENT_WORKSPACE];

/** The gateway: authentication, route policies and the error envelope in front of the services. */
@Module({})
export class GatewayModule {
  static register(
    config: GatewayConfig,
    services: ServiceClient,
    edges: { routeTable: RouteTable; policies: RoutePolicies; errors: ErrorResponder },
  ): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        // Its probes are its own (HealthController); expired idempotency keys are purged with
        // the idempotency records of the operator API's writes.
        ServiceDataModule.forService({
          database: gatewayDatabase(config),
          storage: config,
          purgeAlso: [IdempotencyKeysRepository],
        }),
      ],
      controllers: GATEWAY_CONTROLLERS,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: SERVICE_CLIENT, useValue: services },
        { provide: RouteTable, useValue: edges.routeTable },
        { provide: RoutePolicies, useValue: edges.policies },
        { provide: ErrorResponder, useValue: edges.errors },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        IdempotencyKeysRepository,
        IdempotencyStore,
        IdempotencyGate,
        PolicyPipeline,
        ...rateLimitProviders(config.RATE_LIMITS, {
          overridesTtlMs: config.RATE_LIMIT_OVERRIDES_TTL_MS,
        }),
        IdentityRepository,
        CredentialCache,
        Authenticator,
        AdminService,
        SessionsService,
        WorkspaceService,
        OnboardingRecipients,
      ],
    };
  }
}
