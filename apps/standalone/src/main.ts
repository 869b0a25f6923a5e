import {
  commonEnv,
  ConfigError,
  createLogger,
  enableDefaultMetrics,
  env,
  loadConfig,
  metricsEnv,
  startMetricsServer,
} from '@switchboard/platform';
import { EmbeddedPostgresError } from '@switchboard/embedded-postgres';
import { startEmbeddedPlatform } from './embedded-platform';

const embeddedEnv = {
  ...commonEnv,
  ...metricsEnv,
  DATA_DIR: env.string({
    default: './.data',
    description: 'where the embedded default keeps PostgreSQL data and the operator token',
  }),
  DATABASE_URL: env.optionalString({
    description: 'use this PostgreSQL instead of the embedded one',
    secret: true,
  }),
};

/** `npm start`: the whole platform in one process. Ctrl-C stops it cleanly. */
async function main(): Promise<void> {
  let settings;
  try {
    settings = loadConfig(embeddedEnv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger('switchboard', settings.LOG_LEVEL);
  enableDefaultMetrics();
  const started = Date.now();
  // One metrics port for the whole process (every service shares its registry); first, so that a
  // taken port stops the start before PostgreSQL is started.
  const metrics = await startMetricsServer({
    port: settings.METRICS_PORT,
    host: settings.METRICS_HOST,
  }).catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    return process.exit(1);
  });
  const platform = await startEmbeddedPlatform({
    env: process.env,
    dataDir: settings.DATA_DIR,
    databaseUrl: settings.DATABASE_URL,
    logger,
  }).catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof EmbeddedPostgresError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  });
  process.stdout.write(
    [
      '',
      `Switchboard is running at ${platform.url} (ready in ${Date.now() - started} ms)`,
      `Prometheus metrics: ${metrics.url}`,
      `Operator token (PLATFORM_ADMIN_TOKEN): ${platform.adminToken}`,
      `Create a workspace: npm run admin -- create-workspace --name "My workspace"`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received, stopping`);
    Promise.all([platform.stop(), metrics.close()]).then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
