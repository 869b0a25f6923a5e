import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BirdClient } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  freePort,
  spawnNode,
  startTestPostgres,
  waitForOk,
} from '@switchboard/testing';
import type { ServiceProcessHandle } from '@switchboard/testing';
import type { RunningPostgres } from '@switchboard/embedded-postgres';

const ROOT = resolve(__dirname, '../../..');
const ADMIN_TOKEN = 'sbadm_webhooks_crash_operator_token';
const EVENTS = 200;

/**
 * No event is lost across a crash: the embedded platform (a real process from dist/) commits 200
 * events while its deliveries hang on a receiver that holds its answers; it is killed with
 * SIGKILL, then started again on the same database. The receiver, deduplicating by
 * `webhook-id` as Standard Webhooks receivers do, ends with every event exactly once, each
 * delivery verified with the SDK's `unwrap`.
 */
describe('webhook delivery survives a crash', () => {
  let postgres: RunningPostgres;
  let platform: ServiceProcessHandle | undefined;
  let receiver: Server;
  let receiverUrl = '';
  let holding = true;
  const held: ServerResponse[] = [];
  const requests: Array<{ headers: Record<string, string>; body: string }> = [];
  let base = '';

  const start = async () => {
    const port = await freePort();
    platform = spawnNode('platform', join(ROOT, 'dist/apps/standalone/src/main.js'), [], {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      DATABASE_URL: postgres.url,
      DATA_DIR: join(tmpdir(), `switchboard-webhooks-crash-${process.pid}`),
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      ENCRYPTION_KEY: 'sbenc_webhooks_crash_key_0123456789',
      DOCS_DIR: join(ROOT, 'docs'),
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOKS_RETRY_SCHEDULE: '200ms,500ms,1s,1s,1s',
      WEBHOOKS_TIMEOUT_MS: '2000',
      WEBHOOKS_JOB_LEASE_SECONDS: '3',
    });
    base = `http://127.0.0.1:${port}`;
    await waitForOk(`${base}/readyz`, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${platform?.output()}`);
    });
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        requests.push({
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (holding && requests.length > 20) held.push(res);
        else res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });

  afterAll(async () => {
    await platform?.stop();
    receiver?.closeAllConnections();
    await new Promise((done) => receiver?.close(done));
    await postgres?.stop();
  });

  it('delivers each of 200 committed events exactly once (by webhook-id) across a SIGKILL', async () => {
    await start();
    const acme = await createWorkspace(base, ADMIN_TOKEN, { name: 'Crash' });
    const bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: base });
    const endpoint = (await bird.webhooks.create({
      url: receiverUrl,
      events: ['email_suppression.created'],
    })) as unknown as { secret: string };
    for (let i = 0; i < EVENTS; i++) {
      const added = await call(base, 'POST', '/v1/email/suppressions', {
        token: acme.api_key.secret,
        body: { email: `crash${i}@example.test` },
      });
      expect(added.status).toBe(201);
    }
    // Kill while deliveries hang on the receiver's held answers.
    const deadline = Date.now() + 30_000;
    while (held.length === 0 && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 50));
    expect(held.length).toBeGreaterThan(0);
    platform?.child.kill('SIGKILL');
    await new Promise((done) => platform?.child.once('exit', done));
    holding = false;
    for (const res of held.splice(0)) res.destroy();

    await start();
    const byWebhookId = () => {
      const unique = new Map<string, string>();
      for (const request of requests) unique.set(request.headers['webhook-id'], request.body);
      return unique;
    };
    const until = Date.now() + 90_000;
    while (byWebhookId().size < EVENTS && Date.now() < until)
      await new Promise((done) => setTimeout(done, 100));
    await new Promise((done) => setTimeout(done, 1_000)); // a duplicate would arrive by now
    const unique = byWebhookId();
    expect(unique.size).toBe(EVENTS);
    const emails = new Set(
      [...unique.values()].map(
        (body) => (JSON.parse(body) as { data: { email: string } }).data.email,
      ),
    );
    expect(emails.size).toBe(EVENTS);
    for (const request of requests)
      expect(() =>
        bird.webhooks.unwrap(request.body, request.headers, { secret: endpoint.secret }),
      ).not.toThrow();
  }, 180_000);
});
