import type { Pool, PoolClient } from 'pg';

export interface TransactionBegins {
  /** Every BEGIN sent on the pool's checked-out clients since `watchTransactionBegins`, in order. */
  readonly begins: string[];
  /** Stops watching; clients checked out meanwhile are restored when they are released. */
  stop(): void;
}

/**
 * Writes down the BEGIN of every transaction run on `pool`'s checked-out clients (`pool.connect`),
 * so a test can see which settings a worker's transactions carry. Queries still run.
 */
export function watchTransactionBegins(pool: Pool): TransactionBegins {
  const begins: string[] = [];
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<PoolClient>;
  const watching = async (...args: unknown[]): Promise<PoolClient | undefined> => {
    // `pool.query` checks out with a callback, for one statement: no transaction to watch.
    if (args.length > 0) return connect(...args);
    const client = await connect();
    const { query, release } = client;
    client.query = ((text: unknown, ...rest: unknown[]) => {
      if (typeof text === 'string' && /^\s*BEGIN\b/i.test(text)) begins.push(text);
      return (query as (...args: unknown[]) => unknown).call(client, text, ...rest);
    }) as PoolClient['query'];
    client.release = (err?: Error | boolean) => {
      client.query = query;
      client.release = release;
      return release.call(client, err);
    };
    return client;
  };
  pool.connect = watching as Pool['connect'];
  return {
    begins,
    stop: () => {
      if (pool.connect === (watching as Pool['connect'])) pool.connect = connect as Pool['connect'];
    },
  };
}
