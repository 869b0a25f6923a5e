export { gatewayEnv } from './config/gateway.config';
export type { GatewayConfig } from './config/gateway.config';
export { createGateway } from './create-gateway';
export type { RunningGateway } from './create-gateway';
export { gatewayDatabase } from './database/gateway.database';
export { buildOpenApiDocument } from './pipeline/openapi/openapi.document';
export { resolveDeclaredRoutes } from './pipeline/routes/resolved-routes';
export { GATEWAY_CONTROLLERS } from './gateway.module';
