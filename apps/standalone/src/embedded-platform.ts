import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { createGateway, gatewayDatabase, gatewayEnv } from '@switchboard/app-gateway';
import { ClientEndpoint, SocketIoEndpoint } from '@switchboard/app-realtime';
import type { GatewayConfig } from '@switchboard/app-gateway';
import { runMigrations } from '@switchboard/persistence';
import { startEmbeddedPostgres } from '@switchboard/embedded-postgres';
import type { RunningPostgres } from '@switchboard/embedded-postgres';
import { InProcessBus, loadConfig, PinoNestLogger, startService } from '@switchboard/platform';
import type { Logger } from 'pino';
import { BackgroundHost } from './background/background-host';
import { productServices } from './services';

export interface EmbeddedPlatformOptions {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  logger: Logger;
  /** Use this database instead of starting the embedded PostgreSQL. */
  databaseUrl?: string;
  persistentDatabase?: boolean;
  /**
   * The background thread's compiled entry: `background-thread.js` beside this file unless set
   * (a caller running this file from its TypeScript source points at the built one).
   */
  backgroundEntry?: string;
}

export interface EmbeddedPlatform {
  url: string;
  /** Every (method, path) the gateway serves, HEAD included. */
  routes: ReadonlyArray<{ method: string; url: string }>;
  adminToken: string;
  adminTokenGenerated: boolean;
  databaseUrl: string;
  /** The thread running every service's background work (ADR 11). */
  background: BackgroundHost;
  stop(): Promise<void>;
}

/**
 * The whole platform in one process: embedded PostgreSQL, every service's migrations, every
 * service on the in-process bus, and the gateway in front. Same handlers as distributed mode.
 * The services' background work (queues, outbox relays, event consumers, housekeeping) runs on
 * a worker thread of its own, so it never delays the loop that answers requests (ADR 11).
 */
export async function startEmbeddedPlatform(
  options: EmbeddedPlatformOptions,
): Promise<EmbeddedPlatform> {
  const { logger } = options;
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  let postgres: RunningPostgres | undefined;
  let databaseUrl = options.databaseUrl;
  if (!databaseUrl) {
    postgres = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'postgres'),
      persistent: options.persistentDatabase ?? true,
      ownProcessGroup: true,
      onNotice: (message) => logger.warn(message),
    });
    databaseUrl = postgres.url;
  }
  const { value: adminToken, generated } = persistedSecret(
    options.env.PLATFORM_ADMIN_TOKEN,
    dataDir,
    'admin-token',
    'sbadm_',
  );
  const encryptionKey = persistedSecret(
    options.env.ENCRYPTION_KEY,
    dataDir,
    'encryption-key',
    'sbenc_',
  ).value;
  const env = embeddedEnv(options.env, { databaseUrl, encryptionKey });
  const gatewayConfig: GatewayConfig = {
    ...loadConfig(gatewayEnv, env),
    PLATFORM_ADMIN_TOKEN: adminToken,
  };

  await runMigrations(gatewayDatabase(gatewayConfig));
  const serviceConfigs = productServices.map((service) => loadConfig(service.schema, env));
  for (const [index, service] of productServices.entries())
    await service.migrate(serviceConfigs[index]);

  const bus = new InProcessBus();
  const transport = {
    kind: 'in-process' as const,
    bus,
    timeoutMs: gatewayConfig.TRANSPORT_TIMEOUT_MS,
  };
  const nestLogger = new PinoNestLogger(logger);
  const background = new BackgroundHost({
    entry: options.backgroundEntry ?? join(__dirname, 'background', 'background-thread.js'),
    data: { env, logLevel: logger.level },
    logger,
  });
  // Booted beside the request side (the other core), awaited before the platform is up.
  const backgroundStarted = background.start();
  backgroundStarted.catch(() => undefined);
  const services: INestApplicationContext[] = [];
  for (const [index, service] of productServices.entries()) {
    services.push(
      await startService({
        name: service.name,
        module: service.module(serviceConfigs[index], 'requests', transport),
        transport,
        logger: nestLogger,
      }),
    );
  }
  const gateway = await createGateway(gatewayConfig, transport, nestLogger, [background.readiness]);
  // Realtime clients connect on the API port (`/app/{key}`, `/realtime/socket.io`): the realtime
  // service's endpoints take those requests of the gateway's HTTP server.
  const realtime = services[productServices.findIndex((service) => service.name === 'realtime')];
  const httpServer = gateway.app.getHttpServer();
  realtime.get(ClientEndpoint).attach(httpServer);
  realtime.get(SocketIoEndpoint).attach(httpServer);
  await backgroundStarted.catch(async (err: unknown) => {
    await gateway.close();
    for (const service of services.reverse()) await service.close();
    await postgres?.stop();
    throw err;
  });
  // For the operator's tools (`npm run stats:rebuild`): the port is picked afresh at each start.
  // Written once the platform is up, so a start that failed leaves none.
  const urlFile = join(dataDir, DATABASE_URL_FILE);
  if (postgres) {
    writeFileSync(urlFile, `${databaseUrl}\n`, { mode: 0o600 });
    chmodSync(urlFile, 0o600);
  }
  return {
    url: gateway.url,
    routes: gateway.routes,
    adminToken,
    adminTokenGenerated: generated,
    databaseUrl,
    background,
    stop: async () => {
      try {
        await gateway.close();
        await background.stop();
        for (const service of services.reverse()) await service.close();
        await postgres?.stop();
      } finally {
        if (postgres) rmSync(urlFile, { force: true });
      }
    },
  };
}

/** Where a running embedded default names its PostgreSQL (mode 600, removed when it stops). */
export const DATABASE_URL_FILE = 'database-url';

/**
 * The variables the embedded default sets for the gateway and every service on top of the
 * operator's environment (distributed mode must wire each of them: deploy/settings-parity.spec.ts).
 */
export function embeddedEnv(
  env: NodeJS.ProcessEnv,
  settings: { databaseUrl: string; encryptionKey: string },
): NodeJS.ProcessEnv {
  return {
    ...env,
    DATABASE_URL: settings.databaseUrl,
    TRANSPORT: 'in-process',
    ENCRYPTION_KEY: settings.encryptionKey,
  };
}

/** A configured secret, or one generated once and kept in the data directory (operator token, encryption key). */
function persistedSecret(
  configured: string | undefined,
  dataDir: string,
  name: string,
  prefix: string,
): { value: string; generated: boolean } {
  if (configured) return { value: configured, generated: false };
  const file = join(dataDir, name);
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), generated: false };
  const value = `${prefix}${randomBytes(24).toString('hex')}`;
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return { value, generated: true };
}
