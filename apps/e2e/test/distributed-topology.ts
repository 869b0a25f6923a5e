import { join, resolve } from 'node:path';
import {
  freePort,
  runNode,
  spawnNode,
  startNatsServer,
  startTestPostgres,
  waitForOk,
} from '@switchboard/testing';
import type { RunningNats, ServiceProcessHandle } from '@switchboard/testing';
import type { RunningPostgres } from '@switchboard/embedded-postgres';
import { DeployedApps, ProductServiceApps } from '@switchboard/contracts';

const ROOT = resolve(__dirname, '../../..');

/** One running process of a service. */
export interface ServiceEntry {
  handle: ServiceProcessHandle;
  healthUrl: string;
  metricsUrl: string;
  clientUrl?: string;
}

export interface DistributedTopology {
  gatewayUrl: string;
  databaseUrl: string;
  natsUrl: string;
  encryptionKey: string;
  adminToken: string;
  /** The first gateway's Prometheus endpoint (its METRICS_PORT), apart from the API port. */
  gatewayMetricsUrl: string;
  nats: RunningNats;
  services: Map<string, ServiceEntry>;
  /** Starts one more gateway replica on the same NATS and PostgreSQL; stopped with the rest. */
  addGateway(): Promise<string>;
  /** Stops one product service's process (SIGTERM), as an operator or a crash would. */
  stopService(app: string): Promise<void>;
  /**
   * SIGKILLs the service's newest process (a crash: nothing runs on the way out); `services`
   * then names the one started before it, if any.
   */
  killService(app: string): Promise<void>;
  /**
   * Starts a product service process (again, or one more replica) on the same settings; resolves
   * once it is ready, with its health URL and, for realtime, its client URL.
   */
  startService(app: string): Promise<{ healthUrl: string; clientUrl?: string }>;
  stop(): Promise<void>;
}

const main = (app: string) => join(ROOT, 'dist/apps', app, 'src/main.js');

/**
 * The distributed topology, really started: PostgreSQL, nats-server, every service and the
 * gateway as separate Node processes from the built dist/ (npm test builds first).
 */
export async function startDistributedTopology(
  env: NodeJS.ProcessEnv = {},
): Promise<DistributedTopology> {
  const postgres: RunningPostgres = await startTestPostgres();
  const nats = await startNatsServer();
  const adminToken = 'sbadm_e2e_operator_token';
  const common = {
    ...process.env,
    TRANSPORT: 'nats',
    NATS_URL: nats.url,
    DATABASE_URL: postgres.url,
    LOG_LEVEL: 'warn',
    TRANSPORT_TIMEOUT_MS: '2000',
    DOCS_DIR: join(ROOT, 'docs'),
    ENCRYPTION_KEY: 'sbenc_e2e_encryption_key_0123456789',
    ...env,
  };
  const started: ServiceProcessHandle[] = [];
  const services = new Map<string, ServiceEntry>();
  /** Every running process of each service, oldest first (`services` names the newest). */
  const replicas = new Map<string, ServiceEntry[]>();
  const gatewayMetricsUrls: string[] = [];
  const stop = async () => {
    await Promise.all(started.map((handle) => handle.stop()));
    await nats.stop();
    await postgres.stop();
  };
  try {
    for (const app of DeployedApps) await runNode(main(app), ['migrate'], common);
    const startService = async (app: string) => {
      const [port, metricsPort] = [await freePort(), await freePort()];
      // Realtime clients connect to a port of the realtime process's own.
      const clientPort = app === 'realtime' ? await freePort() : undefined;
      const handle = spawnNode(app, main(app), [], {
        ...common,
        HTTP_PORT: String(port),
        METRICS_PORT: String(metricsPort),
        ...(clientPort ? { REALTIME_CLIENT_PORT: String(clientPort) } : {}),
      });
      started.push(handle);
      const entry = {
        handle,
        healthUrl: `http://127.0.0.1:${port}`,
        metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
        ...(clientPort ? { clientUrl: `http://127.0.0.1:${clientPort}` } : {}),
      };
      services.set(app, entry);
      replicas.set(app, [...(replicas.get(app) ?? []), entry]);
      return entry;
    };
    for (const app of ProductServiceApps) await startService(app);
    const addGateway = async () => {
      const [port, metricsPort] = [await freePort(), await freePort()];
      started.push(
        spawnNode('gateway', main('gateway'), [], {
          ...common,
          PORT: String(port),
          HOST: '127.0.0.1',
          METRICS_PORT: String(metricsPort),
          PLATFORM_ADMIN_TOKEN: adminToken,
          // Realtime clients reach the first realtime process through the gateway's origin.
          REALTIME_CLIENT_URL: services.get('realtime')?.clientUrl,
        }),
      );
      gatewayMetricsUrls.push(`http://127.0.0.1:${metricsPort}/metrics`);
      const url = `http://127.0.0.1:${port}`;
      await waitForOk(`${url}/readyz`, 60_000).catch((err: Error) => {
        throw new Error(
          `${err.message}\n${started.map((h) => `--- ${h.name}\n${h.output()}`).join('\n')}`,
        );
      });
      return url;
    };
    const gatewayUrl = await addGateway();
    return {
      gatewayUrl,
      gatewayMetricsUrl: gatewayMetricsUrls[0],
      databaseUrl: postgres.url,
      natsUrl: nats.url,
      encryptionKey: common.ENCRYPTION_KEY,
      adminToken,
      nats,
      services,
      addGateway,
      stopService: async (app) => {
        const running = services.get(app);
        if (!running) throw new Error(`no service ${app}`);
        await running.handle.stop();
        started.splice(started.indexOf(running.handle), 1);
        replicas.set(
          app,
          (replicas.get(app) ?? []).filter((entry) => entry !== running),
        );
      },
      killService: async (app) => {
        const running = replicas.get(app)?.pop();
        if (!running) throw new Error(`no service ${app}`);
        const exited = new Promise((resolve) => running.handle.child.once('exit', resolve));
        running.handle.child.kill('SIGKILL');
        await exited;
        started.splice(started.indexOf(running.handle), 1);
        const previous = replicas.get(app)?.at(-1);
        if (previous) services.set(app, previous);
        else services.delete(app);
      },
      startService: async (app) => {
        const entry = await startService(app);
        await waitForOk(`${entry.healthUrl}/readyz`, 60_000);
        return { healthUrl: entry.healthUrl, clientUrl: entry.clientUrl };
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
