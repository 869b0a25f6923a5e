import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  call,
  createWorkspace,
  freePort,
  spawnNode,
  startTestPostgres,
  startTestSmsc,
  waitForOk,
} from '@switchboard/testing';
import type { ServiceProcessHandle, TestSmsc } from '@switchboard/testing';
import type { RunningPostgres } from '@switchboard/embedded-postgres';
import { Client } from 'pg';

const ROOT = resolve(__dirname, '../../..');
const ADMIN_TOKEN = 'sbadm_sms_crash_test_operator_token';
const MESSAGES = 300;
const TAKEOVER_MS = 60_000;

/**
 * Nothing accepted is lost across a SIGKILL of the embedded platform (a real process from dist/)
 * in the middle of SMS delivery: restarted on the same database, it binds again and hands every
 * message still waiting to the carrier. SMPP is at least once: a submit answered just before the
 * kill, whose outcome was not yet committed, is submitted again.
 */
describe('SMS delivery survives a crash', () => {
  let postgres: RunningPostgres;
  let smsc: TestSmsc;
  let platform: ServiceProcessHandle | undefined;
  let base = '';

  const start = async () => {
    const port = await freePort();
    const script = join(ROOT, 'dist/apps/standalone/src/main.js');
    platform = spawnNode('platform', script, [], {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      DATABASE_URL: postgres.url,
      DATA_DIR: join(tmpdir(), `switchboard-sms-crash-${process.pid}`),
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      ENCRYPTION_KEY: 'sbenc_sms_crash_test_encryption_key_01',
      DOCS_DIR: join(ROOT, 'docs'),
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      SMPP_URL: smsc.url,
    });
    base = `http://127.0.0.1:${port}`;
    await waitForOk(`${base}/readyz`, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${platform?.output()}`);
    });
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
    // Slow answers keep submits in flight, so the kill lands among them.
    smsc = await startTestSmsc({ receipts: () => ({ stat: 'DELIVRD' }), responseDelayMs: 20 });
  });

  afterAll(async () => {
    await platform?.stop();
    await smsc?.stop();
    await postgres?.stop();
  });

  it(`hands every one of ${MESSAGES} accepted messages to the carrier after a kill mid-delivery`, async () => {
    await start();
    const acme = await createWorkspace(base, ADMIN_TOKEN, { name: 'Acme' });
    const senders = `/admin/v1/workspaces/${acme.workspace.id}/sms-senders`;
    expect(
      (await call(base, 'POST', senders, { token: ADMIN_TOKEN, body: { sender: 'Acme' } })).status,
    ).toBe(201);
    const texts: string[] = [];
    for (let batch = 0; batch < MESSAGES / 100; batch++) {
      const messages = Array.from({ length: 100 }, (_, i) => {
        const text = `crash ${batch * 100 + i}`;
        texts.push(text);
        return { to: '+31612345678', from: 'Acme', text, category: 'service' };
      });
      const accepted = await call(base, 'POST', '/v1/sms/batches', {
        token: acme.api_key.secret,
        body: { messages },
      });
      expect(accepted.status).toBe(202);
    }
    await smsc.waitFor(() => smsc.messages.length >= 30, 30_000);
    platform?.child.kill('SIGKILL');
    await new Promise((done) => platform?.child.once('exit', done));
    const beforeKill = smsc.messages.length;
    expect(beforeKill).toBeLessThan(MESSAGES);

    await start();
    const wanted = new Set(texts);
    const arrived = () => new Set(smsc.messages.map((m) => m.text).filter((t) => wanted.has(t)));
    await smsc.waitFor(() => arrived().size >= MESSAGES, TAKEOVER_MS);
    const db = new Client({ connectionString: postgres.url });
    await db.connect();
    try {
      // Every message left `accepted` for good; none failed.
      let statuses: Record<string, number> = {};
      for (let tries = 0; tries < 100; tries++) {
        const rows = (
          await db.query<{ status: string; n: number }>(
            `SELECT status, count(*)::int AS n FROM sms_whatsapp.sms_messages GROUP BY status`,
          )
        ).rows;
        statuses = Object.fromEntries(rows.map((row) => [row.status, row.n]));
        if (!statuses.accepted) break;
        await new Promise((done) => setTimeout(done, 100));
      }
      const copies = smsc.messages.length - MESSAGES;
      console.log(
        `sms-crash: ${JSON.stringify({ accepted: MESSAGES, beforeKill, statuses, copies })}`,
      );
      expect(statuses.accepted ?? 0).toBe(0);
      expect(statuses.failed ?? 0).toBe(0);
      expect((statuses.sent ?? 0) + (statuses.delivered ?? 0)).toBe(MESSAGES);
      expect(arrived().size).toBe(MESSAGES);
    } finally {
      await db.end();
    }
  }, 180_000);
});
