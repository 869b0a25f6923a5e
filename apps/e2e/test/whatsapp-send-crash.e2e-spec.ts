import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  call,
  createWorkspace,
  freePort,
  spawnNode,
  startGraphStandIn,
  startTestPostgres,
  waitForOk,
} from '@switchboard/testing';
import type { GraphStandIn, ServiceProcessHandle } from '@switchboard/testing';
import type { RunningPostgres } from '@switchboard/embedded-postgres';
import { Client } from 'pg';

const ROOT = resolve(__dirname, '../../..');
const ADMIN_TOKEN = 'sbadm_whatsapp_crash_operator_token';
const MESSAGES = 200;
const OUTAGE_MS = 30_000;
/** "After it recovers": the dispatcher's back-off is at most 30 s, on a loaded two-core machine. */
const RECOVERY_MS = 120_000;
const PHONE_NUMBER_ID = '100200300';
const SENDER = '+31612340000';

/**
 * Nothing accepted is lost when Meta goes away, and nothing Meta took is sent again: 200 template
 * sends accepted while the Graph stand-in answers 500 to every `POST /messages` for 30 s each
 * reach it exactly once after it recovers (counted per recipient at the stand-in). Then the
 * platform is SIGKILLed mid-dispatch and restarted: every message reaches Meta, and duplicates
 * (a send whose answer the kill cut) are bounded by the sends in flight.
 */
describe('WhatsApp sending survives a Graph outage and a crash', () => {
  let postgres: RunningPostgres;
  let graph: GraphStandIn;
  let platform: ServiceProcessHandle | undefined;
  let base = '';

  const start = async () => {
    const port = await freePort();
    platform = spawnNode('platform', join(ROOT, 'dist/apps/standalone/src/main.js'), [], {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      DATABASE_URL: postgres.url,
      DATA_DIR: join(tmpdir(), `switchboard-whatsapp-crash-${process.pid}`),
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      ENCRYPTION_KEY: 'sbenc_whatsapp_crash_test_key_0123456789',
      DOCS_DIR: join(ROOT, 'docs'),
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
    });
    base = `http://127.0.0.1:${port}`;
    await waitForOk(`${base}/readyz`, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${platform?.output()}`);
    });
  };

  /** A workspace holding a connected number and an approved template (as connect and sync leave them). */
  const workspace = async (name: string, phoneNumberId: string): Promise<string> => {
    const created = await createWorkspace(base, ADMIN_TOKEN, { name });
    const ws = created.workspace.id;
    const key = randomUUID().slice(0, 8);
    const db = new Client({ connectionString: postgres.url });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
         VALUES ($1, $2, $3, $4)`,
        [`waa_${key}`, ws, `waba${key}`, name],
      );
      await db.query(
        `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
           phone_number_id, phone_number, channel_id, name, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'connected')`,
        [`wan_${key}`, ws, `waa_${key}`, phoneNumberId, SENDER, randomUUID(), name],
      );
      await db.query(
        `INSERT INTO sms_whatsapp.whatsapp_templates (id, workspace_id, business_account_id,
           slug, name, category, status, default_language, live_version_id)
         VALUES ($1, $2, $3, 'order_update', 'order_update', 'utility', 'active', 'en', $4)`,
        [`wat_${key}`, ws, `waa_${key}`, `wav_${key}`],
      );
      await db.query(
        `INSERT INTO sms_whatsapp.whatsapp_template_versions (id, workspace_id, template_id,
           number, status) VALUES ($1, $2, $3, 1, 'live')`,
        [`wav_${key}`, ws, `wat_${key}`],
      );
      await db.query(
        `INSERT INTO sms_whatsapp.whatsapp_template_languages (version_id, language,
           workspace_id, meta_template_id, components, status, category, content_hash,
           submitted_at, approved_at)
         VALUES ($1, 'en', $2, $3, '[]', 'approved', 'utility', 'h', now(), now())`,
        [`wav_${key}`, ws, `mt${key}`],
      );
    } finally {
      await db.end();
    }
    graph.addAccount({ wabaId: `waba${key}` });
    graph.addNumber({ phoneNumberId, wabaId: `waba${key}`, displayPhoneNumber: SENDER });
    return created.api_key.secret;
  };

  /** Accepts `MESSAGES` template sends, 20 at a time; answers their recipients (Meta's form). */
  const sendAll = async (apiKey: string, prefix: string): Promise<string[]> => {
    const recipients = Array.from(
      { length: MESSAGES },
      (_, i) => `${prefix}${String(i).padStart(4, '0')}`,
    );
    for (let i = 0; i < MESSAGES; i += 20)
      await Promise.all(
        recipients.slice(i, i + 20).map(async (to) => {
          const accepted = await call(base, 'POST', '/v1/whatsapp/messages', {
            token: apiKey,
            body: {
              to: `+${to}`,
              from: SENDER,
              template: { slug: 'order_update', language: 'en' },
            },
          });
          expect(accepted.status).toBe(202);
        }),
      );
    return recipients;
  };

  /** How often Meta took a message for each recipient (answered 200 by the stand-in). */
  const received = (phoneNumberId: string, recipients: string[]) => {
    const own = new Set(recipients);
    const counts = new Map<string, number>();
    for (const sent of graph.sentFrom(phoneNumberId)) {
      const to = String(sent.body.to).replace(/\D/g, '');
      if (own.has(to)) counts.set(to, (counts.get(to) ?? 0) + 1);
    }
    return counts;
  };

  const statuses = async (): Promise<Record<string, number>> => {
    const db = new Client({ connectionString: postgres.url });
    await db.connect();
    try {
      const rows = (
        await db.query<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM sms_whatsapp.whatsapp_messages GROUP BY status',
        )
      ).rows;
      return Object.fromEntries(rows.map((row) => [row.status, row.n]));
    } finally {
      await db.end();
    }
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
    graph = await startGraphStandIn();
  });

  afterAll(async () => {
    await platform?.stop();
    await graph?.stop();
    await postgres?.stop();
  });

  it(
    'sends each of 200 messages accepted during a 30 s Graph outage exactly once after it recovers',
    async () => {
      await start();
      try {
        const apiKey = await workspace('Outage', PHONE_NUMBER_ID);
        graph.failFor(OUTAGE_MS, { status: 500, path: /\/messages$/ });
        const outageEnds = Date.now() + OUTAGE_MS;
        const recipients = await sendAll(apiKey, '3165550');
        expect(Date.now()).toBeLessThan(outageEnds);
        expect(received(PHONE_NUMBER_ID, recipients).size).toBe(0);
        await graph.waitFor(
          () => received(PHONE_NUMBER_ID, recipients).size >= MESSAGES,
          OUTAGE_MS + RECOVERY_MS,
        );
        const recoveredIn = Date.now() - outageEnds;
        await new Promise((done) => setTimeout(done, 2_000)); // a duplicate would arrive by now
        const counts = received(PHONE_NUMBER_ID, recipients);
        const failedCalls = graph.callsTo('POST', `/${PHONE_NUMBER_ID}/messages`).length - MESSAGES;
        console.log(
          `whatsapp-crash (graph outage): ${JSON.stringify({ accepted: MESSAGES, received: counts.size, recoveredInMs: recoveredIn, refusedCalls: failedCalls })}`,
        );
        expect(counts.size).toBe(MESSAGES);
        expect([...counts.values()].every((count) => count === 1)).toBe(true);
        const byStatus = await statuses();
        expect(byStatus).toEqual({ sent: MESSAGES });
      } finally {
        await platform?.stop();
        platform = undefined;
      }
    },
    OUTAGE_MS + RECOVERY_MS + 60_000,
  );

  it(
    'sends every message after the platform is SIGKILLed mid-dispatch and restarted',
    async () => {
      await start();
      try {
        const phoneNumberId = `${PHONE_NUMBER_ID}9`;
        const apiKey = await workspace('Crash', phoneNumberId);
        graph.delayMs = 20;
        const recipients = await sendAll(apiKey, '3165551');
        await graph.waitFor(() => received(phoneNumberId, recipients).size >= 20, 30_000);
        platform?.child.kill('SIGKILL');
        await new Promise((done) => platform?.child.once('exit', done));
        const beforeKill = received(phoneNumberId, recipients).size;
        await start();
        await graph.waitFor(
          () => received(phoneNumberId, recipients).size >= MESSAGES,
          RECOVERY_MS,
        );
        await new Promise((done) => setTimeout(done, 2_000));
        const counts = received(phoneNumberId, recipients);
        const duplicates = [...counts.values()].filter((count) => count > 1).length;
        console.log(
          `whatsapp-crash (platform killed): ${JSON.stringify({ accepted: MESSAGES, sentBeforeKill: beforeKill, received: counts.size, duplicates })}`,
        );
        expect(counts.size).toBe(MESSAGES);
        // Only a send whose answer the kill cut goes again: at most the calls in flight per number.
        expect(duplicates).toBeLessThanOrEqual(16);
      } finally {
        graph.delayMs = 0;
        await platform?.stop();
        platform = undefined;
      }
    },
    RECOVERY_MS + 90_000,
  );
});
