import { storageEnv } from '@switchboard/persistence';
import { dnsServersEnv, env, serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';
import { delayMs } from '../delivery/retry-schedule';

export const webhooksEnv = {
  ...serviceEnv,
  ...storageEnv,
  DNS_SERVERS: dnsServersEnv('that resolve endpoint hosts'),
  DNS_TIMEOUT_MS: env.int({
    default: 5000,
    min: 100,
    max: 60_000,
    description: 'time-out of one DNS query',
  }),
  WEBHOOKS_ALLOW_PRIVATE_URLS: env.boolean({
    default: false,
    description:
      'accept http:// and private, loopback and link-local endpoint addresses (local development and tests only)',
  }),
  WEBHOOKS_RETRY_SCHEDULE: env.list({
    default: ['5s', '30s', '2m', '10m', '1h', '3h', '6h', '12h'],
    pattern: /^[1-9]\d*(ms|s|m|h)$/,
    description:
      'delays between the attempts of one delivery (s, m, h), comma-separated; after the last the event is given up for that endpoint',
  }),
  WEBHOOKS_TIMEOUT_MS: env.int({
    default: 15_000,
    min: 100,
    max: 60_000,
    description:
      "time a receiver has to answer a delivery; also the longest a delivery waits for its endpoint's window before going back to the queue",
  }),
  WEBHOOKS_CONCURRENCY: env.int({
    default: 10_000,
    min: 1,
    max: 100_000,
    description:
      "deliveries a webhooks process holds at once: being sent, waiting for their endpoint's window, or being recorded",
  }),
  WEBHOOKS_ENDPOINT_CONCURRENCY: env.int({
    default: 8,
    min: 1,
    max: 100,
    description:
      "deliveries in flight to a new endpoint; its window then follows the receiver's answers",
  }),
  WEBHOOKS_ENDPOINT_MAX_CONCURRENCY: env.int({
    default: 64,
    min: 1,
    max: 1000,
    description:
      'most deliveries in flight to one endpoint while it keeps up, so one receiver cannot take every slot',
  }),
  WEBHOOKS_JOB_LEASE_SECONDS: env.int({
    default: 60,
    min: 1,
    max: 3600,
    description:
      "how long a worker holds a delivery job; a crashed worker's deliveries are taken over after it",
  }),
  WEBHOOKS_DEGRADE_AFTER_FAILURES: env.int({
    default: 3,
    min: 1,
    max: 1000,
    description: 'consecutive failed attempts that mark an endpoint degraded',
  }),
  WEBHOOKS_PAUSE_AFTER_MINUTES: env.int({
    default: 1440,
    min: 1,
    max: 100_000,
    description:
      'minutes of continuous failure (no delivery succeeding) after which an endpoint is paused',
  }),
  WEBHOOKS_EVENT_RETENTION_DAYS: env.int({
    default: 30,
    min: 1,
    max: 365,
    description: 'days events and attempts are kept for the attempts list and replays',
  }),
};

export type WebhooksConfig = ConfigOf<typeof webhooksEnv>;

export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');

/** The retry schedule in milliseconds (its entries were checked when the config loaded). */
export function retryDelaysOf(config: WebhooksConfig): number[] {
  return config.WEBHOOKS_RETRY_SCHEDULE.map(delayMs);
}
