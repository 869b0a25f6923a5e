import { SealedBox } from '@switchboard/platform';
import { startTestPostgres } from '@switchboard/testing';
import { DataSource } from 'typeorm';
import { idempotencyRecordsTable, idempotentWrite, storedReply } from './idempotent-write';

describe('storedReply', () => {
  let postgres: { stop(): Promise<void> };
  let db: DataSource;
  const box = new SealedBox('idempotency spec key 0123456789');
  const scope = { workspaceId: 'ws_1', key: 'k-1', fingerprint: 'f-1' };

  beforeAll(async () => {
    const running = await startTestPostgres();
    postgres = running;
    db = new DataSource({ type: 'postgres', url: running.url });
    await db.initialize();
    await db.query('CREATE SCHEMA ir');
    await db.query(idempotencyRecordsTable('ir'));
  });

  afterAll(async () => {
    await db?.destroy();
    await postgres?.stop();
  });

  it('answers nothing for a key never used, then the first reply once it is stored', async () => {
    expect(await storedReply(db, 'ir', scope, box)).toBeUndefined();
    await idempotentWrite(db, 'ir', scope, box, () => Promise.resolve({ id: 'em_1' }));
    expect(await storedReply(db, 'ir', scope, box)).toEqual({ id: 'em_1' });
  });

  it('refuses the key with another body (E01005), and ignores a request without a key', async () => {
    await expect(
      storedReply(db, 'ir', { ...scope, fingerprint: 'f-2' }, box),
    ).rejects.toMatchObject({
      code: 'E01005',
    });
    expect(await storedReply(db, 'ir', { workspaceId: 'ws_1' }, box)).toBeUndefined();
  });
});
