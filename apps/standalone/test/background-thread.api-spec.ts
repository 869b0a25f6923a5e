import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderMetrics } from '@switchboard/platform';
import { call, createWorkspace, startSmtpSink } from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

interface Readiness {
  status: string;
  checks: Record<string, string>;
}

/**
 * The embedded default runs the services' background work on a thread of its own (ADR 11):
 * /readyz reports it, a thread that dies is started again, and what was accepted meanwhile is
 * delivered once it is back.
 */
describe('the embedded default’s background thread', () => {
  let sink: SmtpSink;
  let platform: TestPlatform;
  let acme: CreatedWorkspace;
  /** Webhook requests a local receiver answered 200 to. */
  const hooks: string[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      hooks.push(body);
      response.writeHead(200).end();
    });
  });
  const user = 'owner@acme.test';

  const readiness = async () => call<Readiness>(platform.base, 'GET', '/readyz');
  const send = (subject: string) =>
    call<{ id: string }>(platform.base, 'POST', '/v1/email/messages', {
      token: acme.api_key.secret,
      body: { from: 'try@onboarding.localhost', to: [user], subject, text: 'x' },
    });
  const sunk = (subject: string) =>
    sink.messages.some((m) => m.raw.includes(`Subject: ${subject}`));

  beforeAll(async () => {
    sink = await startSmtpSink();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    platform = await startTestPlatform({
      SMTP_RELAY_URL: sink.url,
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
    });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    const created = await call(
      platform.base,
      'POST',
      `/admin/v1/workspaces/${acme.workspace.id}/users`,
      {
        token: TEST_ADMIN_TOKEN,
        body: { email: user, password: 'a long enough password', role: 'admin' },
      },
    );
    expect(created.status).toBe(201);
    const endpoint = await call(platform.base, 'POST', '/v1/webhooks', {
      token: acme.api_key.secret,
      body: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
        events: ['email.delivered'],
      },
    });
    expect(endpoint.status).toBe(201);
  });

  afterAll(async () => {
    await platform?.stop();
    await sink?.stop();
    receiver.close();
  });

  it('reports the background thread in /readyz', async () => {
    const ready = await readiness();
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ background: 'ok', email: 'ok', webhooks: 'ok' });
  });

  it('delivers accepted mail from the background thread', async () => {
    expect((await send('first')).status).toBe(202);
    await sink.waitFor(() => sunk('first'));
  });

  it('publishes the delivery’s events to the webhooks consumer, on the thread, and shows its metrics on the process’s page', async () => {
    const attempts = async () => {
      const { body } = await renderMetrics();
      const line = /^switchboard_webhook_attempts_total\{outcome="delivered"\} (\d+)/m.exec(body);
      return Number(line?.[1] ?? 0);
    };
    const deadline = Date.now() + 20_000;
    while (!hooks.some((hook) => hook.includes('email.delivered')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hooks.some((hook) => hook.includes('email.delivered'))).toBe(true);
    // The attempt is counted once recorded, just after the receiver has answered it.
    while ((await attempts()) === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await attempts()).toBeGreaterThan(0);
  });

  it('restarts a thread that dies; /readyz says so meanwhile; mail accepted meanwhile is delivered', async () => {
    await platform.background.kill();
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.body.checks.background).toBe('failing');
    // Requests are answered on their own thread: sends are accepted while it is down.
    expect((await send('while down')).status).toBe(202);
    await sink.waitFor(() => sunk('while down'), 30_000);
    expect((await readiness()).body.checks.background).toBe('ok');
  });
});
