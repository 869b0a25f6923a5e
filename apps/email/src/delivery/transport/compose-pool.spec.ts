import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { composeMessage } from './compose-message';
import type { ComposedMail } from './compose-message';
import { ComposePool } from './compose-pool';

// npm test builds dist/ before jest runs: the pool is tested with the worker it ships with.
const BUILT_WORKER = resolve(
  __dirname,
  '../../../../../dist/apps/email/src/delivery/transport/compose.worker.js',
);

// Text only: a single-part message has no random MIME boundary, so equal mail is equal bytes.
const mail = (n: number): ComposedMail => ({
  messageId: `msg_${n}@mail.example.test`,
  from: { email: 'news@mail.example.test', name: 'News' },
  to: [{ email: `user${n}@example.test` }],
  cc: [],
  replyTo: [],
  subject: `Message ${n}`,
  text: `Hello ${n}`,
  headers: {},
  attachments: [],
});

describe(ComposePool.name, () => {
  const date = new Date('2026-11-23T12:00:00Z');

  (existsSync(BUILT_WORKER) ? it : it.skip)(
    'composes and DKIM-signs on its threads exactly the bytes the main thread composes',
    async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const dkim = {
        domainName: 'mail.example.test',
        keySelector: 's1',
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      };
      // RSA PKCS#1 v1.5 signatures are deterministic: the same mail signs to the same bytes.
      const signed = (n: number) => ({ ...mail(n), dkim });
      const pool = new ComposePool(2, BUILT_WORKER);
      try {
        expect(pool.threaded).toBe(true);
        const threaded = await Promise.all(
          Array.from({ length: 20 }, (_, n) => pool.compose(signed(n), date)),
        );
        const inline = await Promise.all(
          Array.from({ length: 20 }, (_, n) => composeMessage(signed(n), date)),
        );
        expect(threaded.map(String)).toEqual(inline.map(String));
        expect(String(threaded[0])).toContain('DKIM-Signature:');
      } finally {
        await pool.close();
      }
    },
  );

  (existsSync(BUILT_WORKER) ? it : it.skip)(
    'reports a message the thread cannot compose as an error of that message only',
    async () => {
      const pool = new ComposePool(1, BUILT_WORKER);
      try {
        const broken = {
          ...mail(1),
          dkim: { domainName: 'mail.example.test', keySelector: 's1', privateKey: 'not a key' },
        };
        await expect(pool.compose(broken, date)).rejects.toThrow();
        expect(String(await pool.compose(mail(2), date))).toContain('Message 2');
      } finally {
        await pool.close();
      }
    },
  );

  it('composes on the main thread without the compiled worker or with no threads', async () => {
    for (const pool of [new ComposePool(2, '/nonexistent/compose.worker.js'), new ComposePool(0)]) {
      expect(pool.threaded).toBe(false);
      expect(String(await pool.compose(mail(3), date))).toBe(
        String(await composeMessage(mail(3), date)),
      );
      await pool.close();
    }
  });
});
