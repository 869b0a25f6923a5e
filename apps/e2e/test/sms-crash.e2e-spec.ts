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
const ADMIN_TOKEN = 'sbadm_sms_crash_operator_token';
/** Submits in flight per bind: the bound on duplicates (a submit whose response a fault lost). */
const WINDOW = 10;
const MESSAGES = 500;
const SENDER = 'CrashTest';
/** "Each reaches it": after the SMSC or the platform is back, on a loaded two-core machine. */
const RECOVERY_MS = 90_000;

/**
 * Nothing accepted is lost when the carrier goes away or the platform dies mid-burst: 500 SMS
 * accepted through the API each reach the SMSC once it (or the platform) is back. A submit whose
 * response the fault cut may be sent again; those duplicates are counted and bounded by the
 * window of submits in flight at the moment of the fault.
 */
describe('SMS sending survives a carrier outage and a crash', () => {
  let postgres: RunningPostgres;
  let platform: ServiceProcessHandle | undefined;
  let base = '';
  const env = (port: number, smsc: TestSmsc) => ({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    DATABASE_URL: postgres.url,
    DATA_DIR: join(tmpdir(), `switchboard-sms-crash-${process.pid}`),
    PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
    ENCRYPTION_KEY: 'sbenc_sms_crash_test_encryption_key_0123',
    DOCS_DIR: join(ROOT, 'docs'),
    LOG_LEVEL: 'warn',
    SMPP_URL: `${smsc.url}${smsc.url.includes('?') ? '&' : '?'}window=${WINDOW}&tps=1000`,
    RATE_LIMITS: 'off',
  });
  const start = async (smsc: TestSmsc): Promise<number> => {
    const port = await freePort();
    const spawnedAt = Date.now();
    platform = spawnNode(
      'platform',
      join(ROOT, 'dist/apps/standalone/src/main.js'),
      [],
      env(port, smsc),
    );
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
  /** A workspace with an alphanumeric sender the operator registered; answers its API key. */
  const workspace = async (name: string): Promise<string> => {
    const created = await createWorkspace(base, ADMIN_TOKEN, { name });
    const sender = await call(
      base,
      'POST',
      `/admin/v1/workspaces/${created.workspace.id}/sms-senders`,
      { token: ADMIN_TOKEN, body: { sender: SENDER } },
    );
    expect(sender.status).toBe(201);
    return created.api_key.secret;
  };
  /** Accepts `MESSAGES` texts `<tag> n` in batches of 100; answers the texts. */
  const sendAll = async (key: string, tag: string): Promise<string[]> => {
    const texts: string[] = [];
    for (let b = 0; b < MESSAGES / 100; b++) {
      const messages = Array.from({ length: 100 }, (_, i) => {
        const text = `${tag} ${b * 100 + i}`;
        texts.push(text);
        return {
          from: SENDER,
          to: `+3161234${String(b * 100 + i).padStart(4, '0')}`,
          text,
          category: 'transactional',
        };
      });
      const accepted = await call(base, 'POST', '/v1/sms/batches', {
        token: key,
        body: { messages },
      });
      expect(accepted.status).toBe(202);
    }
    return texts;
  };
  /** How often the SMSC received each of `texts` (reassembled messages). */
  const received = (smsc: TestSmsc, texts: string[]) => {
    const own = new Set(texts);
    const counts = new Map<string, number>();
    for (const message of smsc.messages)
      if (own.has(message.text)) counts.set(message.text, (counts.get(message.text) ?? 0) + 1);
    return counts;
  };
  /** Messages by status once none is left `accepted` (each handed to the carrier for good). */
  const settledStatuses = async (): Promise<Record<string, number>> => {
    const db = new Client({ connectionString: postgres.url });
    await db.connect();
    try {
      for (let tries = 0; ; tries++) {
        const rows = (
          await db.query<{ status: string; n: number }>(
            'SELECT status, count(*)::int AS n FROM sms_whatsapp.sms_messages GROUP BY status',
          )
        ).rows;
        const statuses = Object.fromEntries(rows.map((row) => [row.status, row.n]));
        if (!statuses.accepted || tries > 100) return statuses;
        await new Promise((done) => setTimeout(done, 100));
      }
    } finally {
      await db.end();
    }
  };
  const report = (name: string, texts: string[], counts: Map<string, number>, extra: object) => {
    const duplicates = [...counts].filter(([, count]) => count > 1).length;
    // Reported, not timed: the figures of a run for the note.
    console.log(
      `sms-crash (${name}): ${JSON.stringify({
        accepted: texts.length,
        lost: texts.filter((text) => !counts.has(text)).length,
        duplicates,
        ...extra,
      })}`,
    );
    return duplicates;
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
  });

  afterAll(async () => {
    await platform?.stop();
    await postgres?.stop();
  });

  it('submits each of 500 accepted messages once the SMSC, stopped mid-burst, is back', async () => {
    const smsc = await startTestSmsc({ responseDelayMs: 5 });
    try {
      await start(smsc);
      const key = await workspace('Outage');
      const sending = sendAll(key, 'outage');
      await smsc.waitFor(() => smsc.messages.length >= 50, 30_000);
      await smsc.stop();
      const beforeOutage = smsc.messages.length;
      const texts = await sending;
      expect(beforeOutage).toBeLessThan(MESSAGES);
      await new Promise((done) => setTimeout(done, 3_000)); // sends meet a carrier that is down
      const restartedAt = Date.now();
      await smsc.restart();
      await smsc.waitFor(() => received(smsc, texts).size >= MESSAGES, RECOVERY_MS);
      const allAt = Date.now();
      await new Promise((done) => setTimeout(done, 1_000)); // a duplicate would arrive by now
      const counts = received(smsc, texts);
      const duplicates = report('smsc stopped', texts, counts, {
        submittedBeforeOutage: beforeOutage,
        restartToAllSubmittedMs: allAt - restartedAt,
      });
      const statuses = await settledStatuses();
      console.log(`sms-crash statuses: ${JSON.stringify(statuses)}`);
      expect(statuses.accepted ?? 0).toBe(0);
      expect(statuses.failed ?? 0).toBe(0);
      expect(counts.size).toBe(MESSAGES);
      expect(duplicates).toBeLessThanOrEqual(WINDOW);
    } finally {
      await platform?.stop();
      platform = undefined;
      await smsc.stop();
    }
  }, 240_000);

  it('submits each of 500 accepted messages after the platform is SIGKILLed mid-burst and restarted', async () => {
    const smsc = await startTestSmsc({ responseDelayMs: 5 });
    try {
      await start(smsc);
      const key = await workspace('Crash');
      const texts = await sendAll(key, 'crash');
      await smsc.waitFor(() => received(smsc, texts).size >= 100, 30_000);
      await kill();
      const beforeKill = received(smsc, texts).size;
      expect(beforeKill).toBeLessThan(MESSAGES);
      const spawnedAt = await start(smsc);
      const readyAt = Date.now();
      await smsc.waitFor(() => received(smsc, texts).size >= MESSAGES, RECOVERY_MS);
      const allAt = Date.now();
      await new Promise((done) => setTimeout(done, 1_000));
      const counts = received(smsc, texts);
      const duplicates = report('platform killed', texts, counts, {
        submittedBeforeKill: beforeKill,
        bootMs: readyAt - spawnedAt,
        restartToAllSubmittedMs: allAt - spawnedAt,
      });
      const statuses = await settledStatuses();
      console.log(`sms-crash statuses: ${JSON.stringify(statuses)}`);
      expect(statuses.accepted ?? 0).toBe(0);
      expect(statuses.failed ?? 0).toBe(0);
      expect(counts.size).toBe(MESSAGES);
      expect(duplicates).toBeLessThanOrEqual(WINDOW);
    } finally {
      await platform?.stop();
      platform = undefined;
      await smsc.stop();
    }
  }, 240_000);
});
