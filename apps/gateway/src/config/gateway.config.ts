import { storageEnv } from '@switchboard/persistence';
import { commonEnv, env, metricsEnv, parsePublicUrl } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';
import { rateLimitEnv } from '../pipeline/rate-limits/rate-limit.config';

export const gatewayEnv = {
  ...commonEnv,
  PORT: env.int({
    default: 8080,
    min: 0,
    max: 65535,
    description: 'HTTP port of the gateway (the API origin)',
  }),
  HOST: env.string({ default: '0.0.0.0', description: 'interface the gateway listens on' }),
  ...metricsEnv,
  ...storageEnv,
  REGIONS: env.list({
    default: ['us1', 'eu1'],
    pattern: /^[a-z]{2}[0-9]+$/,
    description: 'regions this deployment serves; keys of other regions get 421',
  }),
  PLATFORM_ADMIN_TOKEN: env.optionalString({
    description: 'operator token for /admin/v1 (generated in the embedded default when unset)',
    secret: true,
  }),
  TRUST_PROXY: env.boolean({
    default: false,
    description:
      'trust X-Forwarded-For/-Proto/-Host (only behind a proxy that sets them): client addresses for rate limits and the public origin',
  }),
  REALTIME_CLIENT_URL: env.optionalString({
    description:
      'distributed mode: http:// URL of the realtime client port (a realtime process, or a balancer with connection affinity in front of several) that /app/{key} and /realtime/socket.io on the gateway forward to; unset: not forwarded',
  }),
  PUBLIC_URL: {
    ...env.optionalString({
      description:
        'public origin (http:// or https://, optionally with a path) that doc_url links and realtime websocket_url are built on; https gives wss://. Defaults to the scheme and host of each request',
    }),
    kind: 'url' as const,
    parse: parsePublicUrl,
  },
  BODY_LIMIT_BYTES: env.int({
    default: 1_048_576,
    min: 1024,
    max: 104_857_600,
    description: 'request body limit of ordinary operations',
  }),
  LARGE_BODY_LIMIT_BYTES: env.int({
    default: 20_971_520,
    min: 1024,
    max: 209_715_200,
    description: 'request body limit of email send and batch',
  }),
  AUTH_CACHE_TTL_MS: env.int({
    default: 30_000,
    min: 0,
    max: 3_600_000,
    description: 'how long a verified credential is cached in memory',
  }),
  EMAIL_ONBOARDING_DOMAIN: env.string({
    default: 'onboarding.localhost',
    description:
      "shared sending domain every workspace may use before verifying its own; its mail reaches only the workspace's users",
  }),
  ...rateLimitEnv,
  SESSION_TTL_HOURS: env.int({
    default: 168,
    min: 1,
    max: 8760,
    description: 'lifetime of a dashboard session',
  }),
};

export type GatewayConfig = ConfigOf<typeof gatewayEnv> & { PLATFORM_ADMIN_TOKEN: string };
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
