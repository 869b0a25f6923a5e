import type { ServiceDatabase } from '@switchboard/persistence';
import type { GatewayConfig } from '../config/gateway.config';
import {
  AccessKey,
  ApiKey,
  Organization,
  Session,
  User,
  Workspace,
} from '../identity/identity.entities';
import { CreateIdentity1763800000000 } from './migrations/1763800000000-create-identity';
import { CreateRateLimits1763900000000 } from './migrations/1763900000000-create-rate-limits';
import { CreateIdempotencyKeys1763900000100 } from './migrations/1763900000100-create-idempotency-keys';
import { CreateGatewayIdempotencyRecords1763900000300 } from './migrations/1763900000300-create-gateway-idempotency-records';
import { IndexUsersWorkspace1764200000000 } from './migrations/1764200000000-index-users-workspace';

export function gatewayDatabase(
  config: Pick<GatewayConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>,
): ServiceDatabase {
  return {
    schema: 'gateway',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [Organization, Workspace, ApiKey, AccessKey, User, Session],
    migrations: [
      CreateIdentity1763800000000,
      CreateRateLimits1763900000000,
      CreateIdempotencyKeys1763900000100,
      CreateGatewayIdempotencyRecords1763900000300,
      IndexUsersWorkspace1764200000000,
    ],
  };
}
