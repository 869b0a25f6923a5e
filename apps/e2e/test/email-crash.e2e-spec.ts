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
/** The lease before issue 17's fix: a takeover that waited for it would take two minutes. */
const LEASE_SECONDS = 120;
/** "Within seconds": far below the lease, and enough for a loaded two-core machine. */
const TAKEOVER_MS = 45_000;
const CONCURRENCY = 32;

/**
 * Nothing accepted is lost across a SIGKILL of the embedded platform (a real process from dist/),
 * restarted on the same database; the restarted process takes over the dead one's jobs at once
 * (its workers' presence in Postgres ended with it), not when their two-minute lease runs out.
 * A message is sent twice only when the crash cut its conversation between the server's 250 and
 * the commit of that outcome: SMTP is at least once, with the same Message-ID (docs/adr/0005).
 */
describe('email delivery survives a crash', () => {
  let postgres: RunningPostgres;
  let platform: ServiceProcessHandle | undefined;
  let base = '';
  const env = (port: number, sink: SmtpSink) => ({
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
    EMAIL_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
    EMAIL_DELIVERY_CONCURRENCY: String(CONCURRENCY),
    EMAIL_ONBOARDING_DAILY_LIMIT: '100000',
    RATE_LIMITS: 'off',
  });
  /** Starts the platform; answers when it was spawned (ms since the epoch). */
  const start = async (sink: SmtpSink): Promise<number> => {
    const port = await freePort();
    const spawnedAt = Date.now();
    const script = join(ROOT, 'dist/apps/standalone/src/main.js');
    platform = spawnNode('platform', script, [], env(port, sink));
    base = `http://127.0.0.1:${port}`;
    await waitForOk(`${base}/readyz`, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${platform?.output()}`);
    });
    return spawnedAt;
  };
  const kill = async () => {
    platform?.child.kill('SIGKILL');
    await new Promise((done) => platform?.child.once('exit', done));
  };
  /** A workspace whose user (`email`) may receive onboarding mail; answers its API key. */
  const workspace = async (name: string, email: string): Promise<string> => {
    const created = await createWorkspace(base, ADMIN_TOKEN, { name });
    const user = await call(base, 'POST', `/admin/v1/workspaces/${created.workspace.id}/users`, {
      token: ADMIN_TOKEN,
      body: { email, password: 'a long enough password', role: 'admin' },
    });
    expect(user.status).toBe(201);
    return created.api_key.secret;
  };
  const send = async (key: string, to: string, count: number, from: number, at?: string) => {
    const messages = Array.from({ length: count }, (_, i) => ({
      from: 'crash@onboarding.localhost',
      to: [to],
      subject: `Crash ${from + i}`,
      text: `message ${from + i}`,
      ...(at ? { scheduled_at: at } : {}),
    }));
    const accepted = await call<{ data: Array<{ id: string }> }>(
      base,
      'POST',
      '/v1/email/batches',
      {
        token: key,
        body: { messages },
      },
    );
    expect(accepted.status).toBe(202);
    return accepted.body.data.map((item) => `${item.id}@onboarding.localhost`);
  };
  /** How many of `ids` the sink has accepted (other cases' messages may reach it too). */
  const arrived = (sink: SmtpSink, ids: Set<string>) =>
    new Set(sink.messages.filter((m) => ids.has(m.messageId)).map((m) => m.messageId)).size;
  /** Whether the platform has recorded these Message-IDs as delivered. */
  const recorded = async (key: string, messageIds: string[]) => {
    for (const messageId of messageIds) {
      const id = messageId.replace(/@.*$/, '');
      const read = await call<{ status: string }>(base, 'GET', `/v1/email/messages/${id}`, {
        token: key,
      });
      if (read.body.status !== 'delivered') return false;
    }
    return true;
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
  });

  afterAll(async () => {
    await platform?.stop();
    await postgres?.stop();
  });

  it('delivers each of 500 accepted messages exactly once when killed with every conversation awaiting its 250', async () => {
    const sink = await startSmtpSink();
    try {
      await start(sink);
      sink.holdAfter(50);
      const key = await workspace('Held', 'held@acme.test');
      const ids: string[] = [];
      for (let b = 0; b < 10; b++) {
        // The last batch is scheduled (at least 30 s ahead, the API's minimum).
        const at = b === 9 ? new Date(Date.now() + 32_000).toISOString() : undefined;
        ids.push(...(await send(key, 'held@acme.test', 50, b * 50, at)));
      }
      // Kill while deliveries are in flight: after 50 messages the sink holds its DATA replies
      // (set before the first send, so however fast delivery is), and senders block on them.
      await sink.waitFor(() => sink.held() > 0, 30_000);
      // Every 250 given so far recorded: the kill then cuts only conversations awaiting theirs.
      const deliveredBeforeCrash = sink.messages.length;
      const before = sink.messages.map((m) => m.messageId);
      for (let tries = 0; !(await recorded(key, before)); tries++) {
        if (tries > 300) throw new Error('the 250s given before the kill were not recorded');
        await new Promise((done) => setTimeout(done, 100));
      }
      await kill();
      sink.discardHeld();
      expect(deliveredBeforeCrash).toBeLessThan(450);

      const spawnedAt = await start(sink);
      await sink.waitFor(() => arrived(sink, new Set(ids)) >= 500, TAKEOVER_MS);
      const allAt = Date.now();
      await new Promise((done) => setTimeout(done, 1_000)); // a duplicate would arrive by now
      const counts = sink.counts();
      console.log(
        `email-crash (held): ${JSON.stringify({
          accepted: 500,
          lost: ids.filter((id) => !counts.has(id)).length,
          duplicates: [...counts].filter(([, count]) => count > 1).length,
          restartToAllDeliveredMs: allAt - spawnedAt,
        })}`,
      );
      expect(counts.size).toBe(500);
      expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
      for (const id of ids) expect(counts.has(id)).toBe(true);
    } finally {
      await platform?.stop();
      await sink.stop();
    }
  }, 180_000);

  it('delivers all of 200 messages within seconds of a restart when killed mid-delivery, duplicating only conversations cut by the kill', async () => {
    const sink = await startSmtpSink();
    try {
      await start(sink);
      const key = await workspace('Flowing', 'flowing@acme.test');
      const ids: string[] = [];
      for (let b = 0; b < 4; b++) ids.push(...(await send(key, 'flowing@acme.test', 50, b * 50)));
      // Killed while mail flows freely: some conversations have just had their 250.
      await sink.waitFor(() => sink.messages.length >= 40, 30_000);
      const killedAt = Date.now();
      await kill();
      const acceptedBeforeCrash = sink.messages.length;
      expect(acceptedBeforeCrash).toBeLessThan(200);
      const own = new Set(ids);

      const spawnedAt = await start(sink);
      const readyAt = Date.now();
      await sink.waitFor(() => sink.messages.length > acceptedBeforeCrash, TAKEOVER_MS);
      const firstAt = sink.messages[acceptedBeforeCrash].acceptedAt;
      await sink.waitFor(() => arrived(sink, own) >= 200, TAKEOVER_MS);
      const allAt = Date.now();
      await new Promise((done) => setTimeout(done, 1_000)); // a duplicate would arrive by now
      const counts = new Map([...sink.counts()].filter(([id]) => own.has(id)));
      const lost = ids.filter((id) => !counts.has(id));
      const duplicates = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
      const firstCopy = (id: string) => sink.messages.find((m) => m.messageId === id);
      // Reported, not timed: the figures of a run for the note.
      console.log(
        `email-crash: ${JSON.stringify({
          accepted: 200,
          acceptedBySinkBeforeKill: acceptedBeforeCrash,
          lost: lost.length,
          duplicates: duplicates.length,
          // How long before the kill each duplicate's first copy got its 250.
          duplicateMsBeforeKill: duplicates.map(
            (id) => killedAt - (firstCopy(id)?.acceptedAt ?? 0),
          ),
          bootMs: readyAt - spawnedAt,
          restartToFirstDeliveryMs: firstAt - spawnedAt,
          restartToAllDeliveredMs: allAt - spawnedAt,
        })}`,
      );
      expect(lost).toEqual([]);
      expect(counts.size).toBe(200);
      // A duplicate is a conversation the kill cut after its 250: its first copy came before the
      // kill, and no more were in flight than the workers run at once.
      const beforeKill = new Set(
        sink.messages.slice(0, acceptedBeforeCrash).map((m) => m.messageId),
      );
      for (const id of duplicates) expect(beforeKill.has(id)).toBe(true);
      expect(duplicates.length).toBeLessThanOrEqual(CONCURRENCY);
      for (const [, count] of counts) expect(count).toBeLessThanOrEqual(2);
    } finally {
      await platform?.stop();
      await sink.stop();
    }
  }, 180_000);
});
