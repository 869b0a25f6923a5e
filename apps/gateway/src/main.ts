import {
  checkNatsMaxPayload,
  ConfigError,
  createLogger,
  enableDefaultMetrics,
  loadConfig,
  PinoNestLogger,
  requiredMaxPayload,
  startMetricsServer,
} from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { gatewayEnv } from './config/gateway.config';
import type { GatewayConfig } from './config/gateway.config';
import { createGateway } from './create-gateway';
import { gatewayDatabase } from './database/gateway.database';
import { forwardRealtimeClients } from './pipeline/http/realtime-client-forwarder';

/** The gateway as its own process (distributed mode): `node main.js` or `node main.js migrate`. */
async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    const loaded = loadConfig(gatewayEnv);
    if (!process.argv.includes('migrate') && !loaded.PLATFORM_ADMIN_TOKEN) {
      throw new ConfigError(
        'PLATFORM_ADMIN_TOKEN',
        'is required when the gateway runs as its own process',
      );
    }
    if (!process.argv.includes('migrate') && loaded.TRANSPORT !== 'nats') {
      throw new ConfigError('TRANSPORT', 'must be nats when the gateway runs as its own process');
    }
    config = { ...loaded, PLATFORM_ADMIN_TOKEN: loaded.PLATFORM_ADMIN_TOKEN ?? '' };
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger('gateway', config.LOG_LEVEL);
  if (process.argv.includes('migrate')) {
    const applied = await runMigrations(gatewayDatabase(config)).catch((err: Error) => {
      process.stderr.write(`gateway: migrations failed: ${err.message}\n`);
      process.exit(1);
    });
    logger.info({ applied }, `gateway: ${applied.length} migration(s) applied`);
    return;
  }
  enableDefaultMetrics();
  // Its own port, never the public API's; first, so that a taken port stops the gateway at once.
  const metrics = await startMetricsServer({
    port: config.METRICS_PORT,
    host: config.METRICS_HOST,
  }).catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    return process.exit(1);
  });
  logger.info({ url: metrics.url }, `gateway: metrics on ${metrics.url}`);
  // The largest body the gateway accepts must cross NATS in one message: a server that cannot carry
  // it stops the gateway with one line once it is reached (rather than 413s on the first big email).
  void checkNatsMaxPayload(
    config.NATS_URL,
    requiredMaxPayload(Math.max(config.BODY_LIMIT_BYTES, config.LARGE_BODY_LIMIT_BYTES)),
  ).then((problem) => {
    if (!problem) return;
    logger.fatal(`gateway: ${problem}`);
    process.exit(1);
  });
  const gateway = await createGateway(
    config,
    { kind: 'nats', url: config.NATS_URL, timeoutMs: config.TRANSPORT_TIMEOUT_MS },
    new PinoNestLogger(logger),
  );
  if (config.REALTIME_CLIENT_URL)
    forwardRealtimeClients(
      gateway.app.getHttpServer(),
      new URL(config.REALTIME_CLIENT_URL),
      config.PUBLIC_URL ?? gateway.url,
      logger,
    );
  gateway.app.enableShutdownHooks();
  logger.info({ url: gateway.url }, `gateway listening on ${gateway.url}`);
}

void main();
