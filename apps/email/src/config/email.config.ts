import { preferenceEnforcementEnv, storageEnv } from '@switchboard/persistence';
import { ConfigError, dnsServersEnv, env, publicUrlEnv, serviceEnv } from '@switchboard/platform';
import type { ConfigOf, EnvVar } from '@switchboard/platform';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name (not an IP address), lowercased, without a trailing dot. */
function hostName(raw: string): string {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (isIP(name.replace(/^\[|\]$/g, '')) || name.startsWith('['))
    throw new Error('must be a host name, not an IP address');
  if (name.length > 253 || !name.split('.').every((label) => HOST_LABEL.test(label)))
    throw new Error('must be a host name (letters, digits, inner hyphens and dots)');
  return name;
}

function optionalHostName(options: { description: string }): EnvVar<string | undefined> {
  return { ...env.optionalString(options), parse: hostName };
}

export const emailEnv = {
  ...serviceEnv,
  ...storageEnv,
  ...preferenceEnforcementEnv,
  EMAIL_ONBOARDING_DOMAIN: env.string({
    default: 'onboarding.localhost',
    description:
      "shared sending domain every workspace may use before verifying its own; its mail reaches only the workspace's users",
  }),
  EMAIL_ONBOARDING_DAILY_LIMIT: env.int({
    default: 100,
    min: 0,
    max: 1_000_000,
    description: 'messages per workspace per UTC day from the onboarding domain',
  }),
  SMTP_RELAY_URL: env.optionalString({
    description:
      "smtp:// or smtps:// URL (user and password in it if needed) of a relay that takes all mail; unset: deliver to each recipient domain's MX",
  }),
  DNS_SERVERS: dnsServersEnv('for MX lookups and domain verification'),
  DNS_TIMEOUT_MS: env.int({
    default: 5000,
    min: 100,
    max: 60_000,
    description: 'time-out of one DNS query',
  }),
  EMAIL_HELO_NAME: env.string({
    default: 'localhost',
    description: 'name this host gives in SMTP EHLO when delivering directly to MX hosts',
  }),
  EMAIL_RETURN_PATH_TARGET: optionalHostName({
    description:
      "host every sending domain's return-path CNAME points at; it publishes the SPF record authorising this platform's sending addresses and receives bounces; unset: EMAIL_HELO_NAME",
  }),
  EMAIL_MX_PORT: env.int({
    default: 25,
    min: 1,
    max: 65535,
    description:
      'port of the MX hosts in direct delivery (25 on the internet; another for a test network)',
  }),
  EMAIL_DELIVERY_CONCURRENCY: env.int({
    default: 64,
    min: 1,
    max: 1000,
    description: 'SMTP deliveries in flight per email process',
  }),
  EMAIL_COMPOSE_THREADS: env.int({
    // One core stays with the event loop (and, on a small machine, PostgreSQL).
    default: Math.max(1, Math.min(4, availableParallelism() - 1)),
    min: 0,
    max: 64,
    description:
      'worker threads that build and DKIM-sign outgoing messages (0: on the main thread); default: the cores but one, 1 to 4',
  }),
  EMAIL_DESTINATION_CONCURRENCY: env.int({
    // Postfix allows 20 connections per destination by default.
    default: 16,
    min: 1,
    max: 200,
    description: 'SMTP connections at once per destination domain (or to the relay)',
  }),
  EMAIL_RETRY_FOR_MINUTES: env.int({
    default: 2880,
    min: 1,
    max: 10_080,
    description:
      'how long a deferred recipient is retried (exponential back-off) before it is bounced',
  }),
  EMAIL_RETRY_BASE_SECONDS: env.int({
    default: 60,
    min: 1,
    max: 3600,
    description: 'first retry delay after a deferral; each later one doubles, up to an hour',
  }),
  EMAIL_JOB_LEASE_SECONDS: env.int({
    // Renewed every third of it while the worker lives. A process that ended is taken over at
    // once through its presence (ADR 5); the lease bounds only a host that vanished silently.
    default: 30,
    min: 2,
    max: 3600,
    description:
      "how long a job's claim lasts unless renewed; a vanished host's jobs are taken over after it (a crashed process's at once)",
  }),
  EMAIL_CONTENT_RETENTION_DAYS: env.int({
    default: 30,
    min: 1,
    max: 365,
    description: 'how long the generated content of a message is kept for /content',
  }),
  ...publicUrlEnv,
  EMAIL_DAILY_LIMIT: env.int({
    default: 0,
    min: 0,
    max: 1_000_000_000,
    description: 'emails a workspace may send per UTC day, broadcasts included (0: unlimited)',
  }),
  EMAIL_MONTHLY_LIMIT: env.int({
    default: 0,
    min: 0,
    max: 1_000_000_000,
    description: 'emails a workspace may send per UTC calendar month (0: unlimited)',
  }),
};
export type EmailConfig = ConfigOf<typeof emailEnv>;

/**
 * The host each domain's return-path CNAME must point at: EMAIL_RETURN_PATH_TARGET, or the EHLO
 * name. A CNAME cannot point at an address, so an IP literal EHLO name needs the variable set.
 */
export function returnPathTarget(
  config: Pick<EmailConfig, 'EMAIL_RETURN_PATH_TARGET' | 'EMAIL_HELO_NAME'>,
): string {
  if (config.EMAIL_RETURN_PATH_TARGET) return config.EMAIL_RETURN_PATH_TARGET;
  try {
    return hostName(config.EMAIL_HELO_NAME);
  } catch {
    throw new ConfigError(
      'EMAIL_RETURN_PATH_TARGET',
      `is required when EMAIL_HELO_NAME (${JSON.stringify(config.EMAIL_HELO_NAME)}) is not a host name: the return-path CNAME must point at one`,
    );
  }
}
export const EMAIL_CONFIG = Symbol('EMAIL_CONFIG');
