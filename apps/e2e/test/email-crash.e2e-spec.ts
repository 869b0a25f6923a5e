import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  call,
  createWorkspace,
  freePort,
  spawnNode,
  startSmtpSink,
  startTestPostgres,
  waitForOk,
} from '@switchboard/testing';
import type { ServiceProcessHandle, SmtpSink } from '@switchboard/testing';
import type { RunningPostgres } from '@switchboard/embedded-postgres';

const ROOT = resolve(__dirname, '../../..');
const ADMIN_TOKEN = 'sbadm_crash_test_operator_token';
const USER = 'crash@acme.test';

/**
 * Nothing accepted is lost, nothing is sent twice: the embedded platform (a real process from
 * dist/) accepts 500 messages, 50 of them scheduled; while its SMTP transactions are in flight
 * (the sink holds their DATA replies) it is killed with SIGKILL, then started again on the same
 * database. Every message reaches the sink exactly once, counted by Message-ID: nothing accepted
 * is lost, and nothing whose delivery was recorded is sent again. (A crash in the instant between
 * a server's 250 and our commit would send that one message twice: SMTP is at least once; see
 * docs/adr/0005.)
 */
describe('email delivery survives a crash', () => {
  let postgres: RunningPostgres;
  let sink: SmtpSink;
  let platform: ServiceProcessHandle | undefined;
  let base = '';
  const env = (port: number) => ({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    DATABASE_URL: postgres.url,
    DATA_DIR: join(tmpdir(), `switchboard-crash-${process.pid}`),
    PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
    ENCRYPTION_KEY: 'sbenc_crash_test_encryption_key_0123',
    DOCS_DIR: join(ROOT, 'docs'),
    LOG_LEVEL: 'warn',
    SMTP_RELAY_URL: sink.url,
    EMAIL_JOB_LEASE_SECONDS: '3',
    EMAIL_ONBOARDING_DAILY_LIMIT: '100000',
    RATE_LIMITS: 'off',
  });
  const start = async () => {
    const port = await freePort();
    platform = spawnNode('platform', join(ROOT, 'dist/apps/standalone/src/main.js'), [], env(port));
    base = `http://127.0.0.1:${port}`;
    await waitForOk(`${base}/readyz`, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${platform?.output()}`);
    });
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
    sink = await startSmtpSink();
  });

  afterAll(async () => {
    await platform?.stop();
    await sink?.stop();
    await postgres?.stop();
  });

  it('delivers each of 500 accepted messages exactly once across a SIGKILL', async () => {
    await start();
    sink.holdAfter(50);
    const acme = await createWorkspace(base, ADMIN_TOKEN, { name: 'Crash' });
    const user = await call(base, 'POST', `/admin/v1/workspaces/${acme.workspace.id}/users`, {
      token: ADMIN_TOKEN,
      body: { email: USER, password: 'a long enough password', role: 'admin' },
    });
    expect(user.status).toBe(201);
    const message = (i: number, scheduledAt?: string) => ({
      from: 'crash@onboarding.localhost',
      to: [USER],
      subject: `Crash ${i}`,
      text: `message ${i}`,
      ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
    });
    const ids: string[] = [];
    for (let b = 0; b < 10; b++) {
      // The last batch is scheduled (at least 30 s ahead, the API's minimum).
      const scheduledAt = b === 9 ? new Date(Date.now() + 32_000).toISOString() : undefined;
      const messages = Array.from({ length: 50 }, (_, i) => message(b * 50 + i, scheduledAt));
      const accepted = await call<{ data: Array<{ id: string }> }>(
        base,
        'POST',
        '/v1/email/batches',
        { token: acme.api_key.secret, body: { messages } },
      );
      expect(accepted.status).toBe(202);
      ids.push(...accepted.body.data.map((item) => item.id));
    }
    expect(ids).toHaveLength(500);

    // Kill while deliveries are in flight: after 50 messages the sink holds its DATA replies
    // (set before the first send, so however fast delivery is), and senders block on them.
    await sink.waitFor(() => sink.held() > 0, 30_000);
    await new Promise((done) => setTimeout(done, 500));
    const deliveredBeforeCrash = sink.messages.length;
    platform?.child.kill('SIGKILL');
    await new Promise((done) => platform?.child.once('exit', done));
    // Once the server has seen every connection close, the held transactions are dropped.
    await sink.waitFor(() => sink.sessions.concurrent === 0, 10_000);
    sink.release();
    expect(deliveredBeforeCrash).toBeLessThan(450);

    await start();
    await sink.waitFor(() => new Set(sink.messages.map((m) => m.messageId)).size >= 500, 90_000);
    await new Promise((done) => setTimeout(done, 1_000)); // a duplicate would arrive by now
    const counts = sink.counts();
    expect(counts.size).toBe(500);
    const twice = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
    expect(twice).toEqual([]);
    for (const id of ids) expect(counts.has(`${id}@onboarding.localhost`)).toBe(true);
  }, 180_000);
});
