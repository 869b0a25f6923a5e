import type { Pool } from 'pg';
import { inPgTransaction } from './pg-transaction';

/** A pool whose one client writes down what it is sent. */
function recordingPool(sent: string[]): Pool {
  const client = {
    query: (sql: string) => {
      sent.push(sql);
      return Promise.resolve({ rows: [] });
    },
    release: () => undefined,
  };
  return { connect: () => Promise.resolve(client) } as unknown as Pool;
}

describe(inPgTransaction.name, () => {
  it('sends its settings as SET LOCALs with the BEGIN, in one query', async () => {
    const sent: string[] = [];
    await inPgTransaction(recordingPool(sent), (runner) => runner.query('SELECT 1'), {
      settings: { enable_bitmapscan: 'off', statement_timeout: '5000' },
    });
    expect(sent).toEqual([
      'BEGIN; SET LOCAL enable_bitmapscan = off; SET LOCAL statement_timeout = 5000',
      'SELECT 1',
      'COMMIT',
    ]);
  });

  it.each([
    ['a name that is not one', { 'x; DROP TABLE t': 'off' }],
    ['a value that is not one', { enable_seqscan: "off'; DROP TABLE t; --" }],
  ])('refuses %s, sending nothing', async (_, settings) => {
    const sent: string[] = [];
    await expect(
      inPgTransaction(recordingPool(sent), () => Promise.resolve(), { settings }),
    ).rejects.toThrow('not a setting this transaction can take');
    expect(sent.filter((sql) => sql !== 'ROLLBACK')).toEqual([]);
  });
});
