import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, spawnNode, startTestPostgres, waitForOk } from '@switchboard/testing';
import type { ServiceProcessHandle } from '@switchboard/testing';
import type { RunningPostgres } from '@switchboard/embedded-postgres';
import { Client } from 'pg';

const ROOT = resolve(__dirname, '../../..');
const APP_SECRET = 'whatsapp-crash-app-secret';
const WABA = '102290129340398';
const PHONE_NUMBER_ID = '106540352242922';
const MESSAGES = 400;
/** Webhooks in flight at once, as Meta's delivery keeps several connections busy. */
const CONCURRENCY = 16;
const RECOVERY_MS = 90_000;

const wamid = (i: number) => `wamid.crash${String(i).padStart(6, '0')}`;

/** Meta's status webhook for message `i`: delivered. */
function statusWebhook(i: number): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID },
              statuses: [
                {
                  id: wamid(i),
                  status: 'delivered',
                  timestamp: String(1_750_000_000 + i),
                  recipient_id: '16505551234',
                },
              ],
            },
          },
        ],
      },
    ],
  });
}

/**
 * Nothing Meta was told is recorded is lost: the platform is SIGKILLed while status webhooks for
 * messages sent earlier arrive; after the restart, Meta retries the ones that got no 200 (and
 * sends some that did again). Every message ends delivered, each with one event per type.
 */
describe('WhatsApp webhooks survive a crash', () => {
  let postgres: RunningPostgres;
  let platform: ServiceProcessHandle | undefined;
  let base = '';
  let db: Client;

  const start = async () => {
    const port = await freePort();
    platform = spawnNode('platform', join(ROOT, 'dist/apps/standalone/src/main.js'), [], {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      DATABASE_URL: postgres.url,
      DATA_DIR: join(tmpdir(), `switchboard-whatsapp-crash-${process.pid}`),
      PLATFORM_ADMIN_TOKEN: 'sbadm_whatsapp_crash_operator_token',
      ENCRYPTION_KEY: 'sbenc_whatsapp_crash_test_encryption_key_01',
      DOCS_DIR: join(ROOT, 'docs'),
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      WHATSAPP_APP_SECRET: APP_SECRET,
    });
    base = `http://127.0.0.1:${port}`;
    await waitForOk(`${base}/readyz`, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${platform?.output()}`);
    });
  };
  /** Posts webhook `i` as Meta does; true when it got its 200. */
  const post = async (i: number): Promise<boolean> => {
    const body = statusWebhook(i);
    try {
      const response = await fetch(`${base}/webhooks/whatsapp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`,
        },
        body,
      });
      await response.arrayBuffer();
      return response.status === 200;
    } catch {
      return false;
    }
  };
  /** Posts webhooks `indexes` with CONCURRENCY in flight; answers those that got a 200. */
  const postAll = async (indexes: number[], onProgress?: (done: number) => void) => {
    const acknowledged = new Set<number>();
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < indexes.length) {
          const i = indexes[next++];
          if (await post(i)) acknowledged.add(i);
          onProgress?.(++done);
        }
      }),
    );
    return acknowledged;
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
  });

  afterAll(async () => {
    await db?.end();
    await platform?.stop();
    await postgres?.stop();
  });

  it('applies every acknowledged webhook after a SIGKILL mid-stream, none twice', async () => {
    await start();
    db = new Client({ connectionString: postgres.url });
    await db.connect();
    // Messages sent earlier: a connected number and its outbound messages, each with its wamid.
    await db.query(
      `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
       VALUES ('wab_crash', 'ws_crash', $1, 'Crash')`,
      [WABA],
    );
    await db.query(
      `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
         phone_number_id, phone_number, channel_id, name, status)
       VALUES ('wan_crash', 'ws_crash', 'wab_crash', $1, '+15550783881', gen_random_uuid(),
         'Crash', 'connected')`,
      [PHONE_NUMBER_ID],
    );
    await db.query(
      `INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status, number_id,
         business_phone, contact_phone, content_kind, content, provider_message_id, created_at,
         sent_at, status_at)
       SELECT 'wam_crash' || lpad(i::text, 6, '0'), 'ws_crash', 'outbound', 'sent', 'wan_crash',
         '+15550783881', '+16505551234', 'text', '{"text":{"body":"hi"}}',
         'wamid.crash' || lpad(i::text, 6, '0'), now() - interval '1 minute',
         now() - interval '1 minute', now() - interval '1 minute'
       FROM generate_series(0, $1 - 1) AS i`,
      [MESSAGES],
    );
    const all = Array.from({ length: MESSAGES }, (_, i) => i);
    let killed = false;
    let exited: Promise<unknown> | undefined;
    const first = await postAll(all, (done) => {
      if (!killed && done >= MESSAGES / 3) {
        killed = true;
        exited = new Promise((done) => platform?.child.once('exit', done));
        platform?.child.kill('SIGKILL');
      }
    });
    await exited;
    expect(first.size).toBeGreaterThan(0);
    expect(first.size).toBeLessThan(MESSAGES);
    await start();
    // Meta retries what got no 200, and now and then re-sends one that did.
    const missing = all.filter((i) => !first.has(i));
    const retried = await postAll([...missing, ...[...first].filter((i) => i % 5 === 0)]);
    expect(missing.every((i) => retried.has(i))).toBe(true);

    const until = Date.now() + RECOVERY_MS;
    let delivered = 0;
    while (Date.now() < until) {
      delivered = (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_messages
           WHERE workspace_id = 'ws_crash' AND delivered_at IS NOT NULL`,
        )
      ).rows[0].n;
      const unprocessed = (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_webhook_inbox
           WHERE processed_at IS NULL`,
        )
      ).rows[0].n;
      // Delivered, and Meta's duplicates processed too (they must change nothing).
      if (delivered === MESSAGES && unprocessed === 0) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    const inbox = (
      await db.query<{ unprocessed: number; noted: number; total: number }>(
        `SELECT count(*) FILTER (WHERE processed_at IS NULL)::int AS unprocessed,
           count(*) FILTER (WHERE error IS NOT NULL)::int AS noted, count(*)::int AS total
         FROM sms_whatsapp.whatsapp_webhook_inbox`,
      )
    ).rows[0];
    const repeated = (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (
           SELECT message_id, type FROM sms_whatsapp.whatsapp_message_events
           WHERE workspace_id = 'ws_crash' GROUP BY message_id, type HAVING count(*) > 1) d`,
      )
    ).rows[0].n;
    const deliveredEvents = (
      await db.query<{ n: number }>(
        `SELECT count(DISTINCT message_id)::int AS n FROM sms_whatsapp.whatsapp_message_events
         WHERE workspace_id = 'ws_crash' AND type LIKE '%delivered'`,
      )
    ).rows[0].n;
    console.log(
      `whatsapp-webhooks-crash: ${JSON.stringify({
        acknowledgedBeforeKill: first.size,
        retried: retried.size,
        inbox,
        delivered,
        deliveredEvents,
        repeated,
      })}`,
    );
    expect(delivered).toBe(MESSAGES);
    expect(deliveredEvents).toBe(MESSAGES);
    expect(repeated).toBe(0);
    expect(inbox).toEqual({ unprocessed: 0, noted: 0, total: inbox.total });
    expect(inbox.total).toBeGreaterThanOrEqual(MESSAGES);
  }, 240_000);
});
