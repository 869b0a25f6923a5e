import { Module } from '@nestjs/common';
import type { DynamicModule, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { APP_FILTER } from '@nestjs/core';
import { ServiceDataModule } from '@switchboard/persistence';
import type { ReadinessCheck, ServiceClient } from '@switchboard/platform';
import { AdminService } from './identity/admin.service';
import { Authenticator } from './pipeline/auth/authenticator';
import { CredentialCache } from './pipeline/auth/credential-cache';
import { GATEWAY_CONFIG } from './config/gateway.config';
import type { GatewayConfig } from './config/gateway.config';
import { gatewayDatabase } from './database/gateway.database';
import { ErrorEnvelopeFilter, ErrorResponder } from './pipeline/http/error-envelope.filter';
import { RoutePolicies } from './pipeline/routes/route-policies';
import { RouteTable } from './pipeline/routes/route-table';
import { IdentityRepository } from './identity/identity.repository';
import { SessionsService } from './identity/sessions.service';
import { PLATFORM_READINESS, SERVICE_CLIENT } from './pipeline/service-client.provider';
import { IdempotencyGate } from './pipeline/idempotency/idempotency-gate';
import { PolicyPipeline } from './pipeline/routes/policy-pipeline';
import { rateLimitProviders } from './pipeline/rate-limits/rate-limit.providers';
import { IdempotencyKeysRepository } from './pipeline/idempotency/idempotency-keys.repository';
import { IdempotencyStore } from './pipeline/idempotency/idempotency.store';
import { WorkspaceService } from './identity/workspace.service';
import { CURRENT_WORKSPACE } from './api/workspace/workspace.routes';
import {
  WHATSAPP_WEBHOOK_CHALLENGE,
  WHATSAPP_WEBHOOK_RECEIVE,
} from './api/whatsapp/whatsapp-webhooks.routes';
import {
  EMAIL_TRACKING_CLICK,
  EMAIL_TRACKING_OPEN,
  EMAIL_UNSUBSCRIBE,
  EMAIL_UNSUBSCRIBE_PAGE,
} from './api/email/tracking.routes';
import { AdminApiModule } from './api/admin/admin-api.module';
import { ContactsApiModule } from './api/contacts/contacts-api.module';
import { SmsApiModule } from './api/sms/sms-api.module';
import { StatsApiModule } from './api/stats/stats-api.module';
import { WhatsAppApiModule } from './api/whatsapp/whatsapp-api.module';
import { SmsRulesApiModule } from './api/sms-rules/sms-rules-api.module';
import { DocsApiModule } from './api/docs/docs-api.module';
import { EmailApiModule } from './api/email/email-api.module';
import { OperationsApiModule } from './api/operations/operations-api.module';
import { RealtimeApiModule } from './api/realtime/realtime-api.module';
import { SessionsApiModule } from './api/sessions/sessions-api.module';
import { WebhooksApiModule } from './api/webhooks/webhooks-api.module';
import { NumbersApiModule } from './api/numbers/numbers-api.module';
import { VoiceApiModule } from './api/voice/voice-api.module';
import { PreferencesApiModule } from './api/preferences/preferences-api.module';
import { LookupApiModule } from './api/lookup/lookup-api.module';
import { VerifyApiModule } from './api/verify/verify-api.module';

/** One module per product area: its controllers and shape DTOs (api/<area>/<area>-api.module.ts). */
export const GATEWAY_API_MODULES = [
  OperationsApiModule,
  AdminApiModule,
  SessionsApiModule,
  DocsApiModule,
  RealtimeApiModule,
  EmailApiModule,
  WebhooksApiModule,
  ContactsApiModule,
  SmsApiModule,
  StatsApiModule,
  WhatsAppApiModule,
  SmsRulesApiModule,
  NumbersApiModule,
  VoiceApiModule,
  PreferencesApiModule,
  LookupApiModule,
  VerifyApiModule,
];

/** Every controller of every area: what the boot check and the route-table tests walk. */
export const GATEWAY_CONTROLLERS = GATEWAY_API_MODULES.flatMap(
  (area) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, area) ?? []) as Type[],
);

/**
 * Routes Fastify serves directly (registered by createGateway), declared like the others. Naming
 * them here also declares them wherever this module is loaded (the OpenAPI document, the route
 * table), not only where the gateway starts.
 */
export const GATEWAY_NATIVE_ROUTES = [
  CURRENT_WORKSPACE,
  WHATSAPP_WEBHOOK_CHALLENGE,
  WHATSAPP_WEBHOOK_RECEIVE,
  EMAIL_TRACKING_OPEN,
  EMAIL_TRACKING_CLICK,
  EMAIL_UNSUBSCRIBE_PAGE,
  EMAIL_UNSUBSCRIBE,
];

/** The gateway: authentication, route policies and the error envelope in front of the services. */
@Module({})
export class GatewayModule {
  static register(
    config: GatewayConfig,
    services: ServiceClient,
    edges: { routeTable: RouteTable; policies: RoutePolicies; errors: ErrorResponder },
    readiness: ReadinessCheck[] = [],
  ): DynamicModule {
    return {
      module: GatewayModule,
      // The pipeline and identity below are what every area's controllers use.
      global: true,
      imports: [
        // Its probes are its own (HealthController); expired idempotency keys are purged with
        // the idempotency records of the operator API's writes.
        ServiceDataModule.forService({
          database: gatewayDatabase(config),
          storage: config,
          purgeAlso: [IdempotencyKeysRepository],
        }),
        ...GATEWAY_API_MODULES,
      ],
      exports: [
        SERVICE_CLIENT,
        GATEWAY_CONFIG,
        PLATFORM_READINESS,
        IdentityRepository,
        AdminService,
        SessionsService,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: SERVICE_CLIENT, useValue: services },
        { provide: PLATFORM_READINESS, useValue: readiness },
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
      ],
    };
  }
}
