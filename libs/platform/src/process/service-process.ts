import type { DynamicModule } from '@nestjs/common';
import type { ServiceName } from '@switchboard/contracts';
import { ConfigError, env, loadConfig, commonEnv } from '../config/env-schema';
import type { ConfigOf, EnvSchema } from '../config/env-schema';
import { createLogger, PinoNestLogger } from '../observability/logger';
import { enableDefaultMetrics } from '../observability/metrics';
import { metricsEnv, startMetricsServer } from '../observability/metrics-server';
import { startService } from '../service/start-service';
import { checkNatsMaxPayload } from '../transport/payload-limit';
import type { TransportSettings } from '../transport/transport.options';

/**
 * The variables every product service reads on top of `commonEnv`; its database settings are
 * `databaseEnv` or `storageEnv` of `@switchboard/persistence`, which its config spreads too.
 */
export const serviceEnv = {
  ...commonEnv,
  HTTP_PORT: env.int({
    default: 8081,
    min: 0,
    max: 65535,
    description: 'port of /healthz and /readyz in distributed mode',
  }),
  ...metricsEnv,
};

/**
 * Which parts of a service a module holds: `all` (its own process, distributed mode), the part
 * that answers requests, or the background part (work queues, outbox relays, event consumers,
 * housekeeping) that the embedded default runs on its background thread (ADR 11).
 */
export type ServiceParts = 'all' | 'requests' | 'background';

export interface ServiceProcess<S extends EnvSchema> {
  name: ServiceName;
  schema: S;
  /**
   * The service's root module. A service with a background part leaves it out of `requests`;
   * `background` may still hold the request handlers: they are not bound to any transport there.
   * `transport` (not given to `background`) is how a service that asks others reaches them.
   */
  module(config: ConfigOf<S>, parts?: ServiceParts, transport?: TransportSettings): DynamicModule;
  /**
   * The service has a background part. `consumesEvents`: it subscribes to the event bus, so the
   * background thread starts it before the services whose relays publish and stops it after.
   */
  background?: { consumesEvents: boolean };
  migrate(config: ConfigOf<S>): Promise<string[]>;
}

/**
 * The `main` of a service run as its own process: `node main.js` serves over NATS,
 * `node main.js migrate` applies its migrations and exits. A bad setting stops it with one line.
 */
export async function runServiceProcess<S extends EnvSchema & typeof serviceEnv>(
  service: ServiceProcess<S>,
): Promise<void> {
  let config: ConfigOf<S>;
  try {
    config = loadConfig(service.schema);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const base = config as ConfigOf<typeof serviceEnv>;
  const logger = createLogger(service.name, base.LOG_LEVEL);
  if (process.argv.includes('migrate')) {
    const applied = await service.migrate(config).catch((err: Error) => {
      process.stderr.write(`${service.name}: migrations failed: ${err.message}\n`);
      process.exit(1);
    });
    logger.info({ applied }, `${service.name}: ${applied.length} migration(s) applied`);
    return;
  }
  enableDefaultMetrics();
  const transport =
    base.TRANSPORT === 'nats'
      ? { kind: 'nats' as const, url: base.NATS_URL, timeoutMs: base.TRANSPORT_TIMEOUT_MS }
      : undefined;
  if (!transport) {
    process.stderr.write(
      `Invalid configuration: TRANSPORT must be nats when ${service.name} runs as its own process\n`,
    );
    process.exit(1);
  }
  // First, so that a taken port stops the process before it joins NATS.
  const metrics = await startMetricsServer({
    port: base.METRICS_PORT,
    host: base.METRICS_HOST,
  }).catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    return process.exit(1);
  });
  logger.info({ url: metrics.url }, `${service.name}: metrics on ${metrics.url}`);
  // A NATS that cannot carry a 20 MB email stops the process with one line, once it is reached.
  void checkNatsMaxPayload(transport.url).then((problem) => {
    if (!problem) return;
    logger.fatal(`${service.name}: ${problem}`);
    process.exit(1);
  });
  await startService({
    name: service.name,
    module: service.module(config, 'all', transport),
    transport,
    logger: new PinoNestLogger(logger),
    httpPort: base.HTTP_PORT,
  });
  logger.info(
    { port: base.HTTP_PORT },
    `${service.name} serving on NATS; health on port ${base.HTTP_PORT}`,
  );
}
