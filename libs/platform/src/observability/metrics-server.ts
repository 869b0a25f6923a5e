import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, env } from '../config/env-schema';
import { renderMetrics } from './metrics';

/**
 * Where a process serves its Prometheus metrics: a port of its own, never the public API port or
 * the health port that load balancers and probes reach. Every process reads these (the embedded
 * platform, the gateway and each service).
 */
export const metricsEnv = {
  METRICS_PORT: env.int({
    default: 9464,
    min: 0,
    max: 65535,
    description:
      'port of GET /metrics (Prometheus), apart from the API and health ports; 0 picks a free port and logs it',
  }),
  METRICS_HOST: env.string({
    default: '127.0.0.1',
    description:
      'interface of the metrics port: loopback by default; 0.0.0.0 where a scraper on another host reads it (Kubernetes pods, compose)',
  }),
};

export interface MetricsServer {
  /** `http://host:port/metrics`, with the port actually bound (METRICS_PORT=0 picks one). */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A plain node:http server that answers `GET /metrics` with this process's registry (404 for any
 * other path). It does not keep the process alive on its own. A port that cannot be bound is a
 * ConfigError naming METRICS_PORT, so a `main` stops with one line.
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
}): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: this port serves GET /metrics only\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        response
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end(`metrics could not be collected: ${(err as Error)?.message ?? String(err)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new ConfigError(
          'METRICS_PORT',
          `cannot listen on ${options.host}:${options.port} (${err.code === 'EADDRINUSE' ? 'address already in use' : err.message}); set another port, or 0 for any free one`,
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
