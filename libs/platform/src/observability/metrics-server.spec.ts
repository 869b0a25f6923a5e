import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { ConfigError, loadConfig } from '../config/env-schema';
import { httpRequests } from './metrics';
import { metricsEnv, startMetricsServer } from './metrics-server';
import type { MetricsServer } from './metrics-server';

describe(startMetricsServer.name, () => {
  let metrics: MetricsServer | undefined;
  let blocker: Server | undefined;

  afterEach(async () => {
    await metrics?.close();
    metrics = undefined;
    await new Promise((done) => (blocker ? blocker.close(done) : done(undefined)));
    blocker = undefined;
  });

  it('defaults to port 9464 on the loopback interface', () => {
    expect(loadConfig(metricsEnv, {})).toEqual({ METRICS_PORT: 9464, METRICS_HOST: '127.0.0.1' });
  });

  it('picks a free port for METRICS_PORT=0 and reports its URL', async () => {
    metrics = await startMetricsServer({ port: 0, host: '127.0.0.1' });
    expect(metrics.port).toBeGreaterThan(0);
    expect(metrics.url).toBe(`http://127.0.0.1:${metrics.port}/metrics`);
  });

  it("serves the process's registry as Prometheus text on GET /metrics", async () => {
    httpRequests.inc({ method: 'GET', route: '/metrics-server-spec', status: '200' });
    metrics = await startMetricsServer({ port: 0, host: '127.0.0.1' });
    const response = await fetch(metrics.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(await response.text()).toMatch(
      /switchboard_http_requests_total\{method="GET",route="\/metrics-server-spec",status="200"\} 1/,
    );
  });

  it('answers 404 on any other path and 405 to other methods', async () => {
    metrics = await startMetricsServer({ port: 0, host: '127.0.0.1' });
    const origin = metrics.url.replace(/\/metrics$/, '');
    expect((await fetch(`${origin}/healthz`)).status).toBe(404);
    expect((await fetch(`${origin}/`)).status).toBe(404);
    expect((await fetch(metrics.url, { method: 'POST' })).status).toBe(405);
  });

  it('fails with one ConfigError line naming METRICS_PORT when the port is taken', async () => {
    blocker = createServer();
    const port = await new Promise<number>((done) =>
      blocker?.listen(0, '127.0.0.1', () => done((blocker?.address() as { port: number }).port)),
    );
    const failure = startMetricsServer({ port, host: '127.0.0.1' });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(
      `Invalid configuration: METRICS_PORT cannot listen on 127.0.0.1:${port} (address already in use)`,
    );
  });
});
