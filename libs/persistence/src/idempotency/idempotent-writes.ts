import type { RequestContext } from '@switchboard/contracts';
import type { SealedBox } from '@switchboard/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { SqlRunner } from '../pagination/keyset-paginator';
import {
  claimKey,
  forgetKey,
  idempotencyScope,
  idempotentWrite,
  storedReply,
  storeReply,
} from './idempotent-write';
import type { IdempotencyScope } from './idempotent-write';

/**
 * A service's idempotent writes (provided by `ServiceDataModule`): each write is one transaction
 * on the service's data source that claims the request's Idempotency-Key, so a retry replays the
 * first reply (sealed at rest). Without a key the write is simply one transaction.
 */
export class IdempotentWrites {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly box: SealedBox,
    /** Called after each committed write (the email service wakes its outbox relay). */
    private readonly afterWrite?: () => void,
  ) {}

  /** `write` once per Idempotency-Key of the request, in one transaction with the key's claim. */
  run<T>(context: RequestContext, write: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.runScoped(idempotencyScope(context), write);
  }

  /** `run` for a caller that builds the scope itself (the gateway's operator API). */
  async runScoped<T>(
    scope: IdempotencyScope,
    write: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    const reply = await idempotentWrite(this.dataSource, this.schema, scope, this.box, write);
    this.afterWrite?.();
    return reply;
  }

  /**
   * The reply an earlier request with this Idempotency-Key stored, for a write that acts outside
   * the database before it writes (connecting a number at Meta): a retry replays it without
   * acting again. Undefined without a key or a stored reply (`run` then claims the key).
   */
  replayOf<T>(context: RequestContext): Promise<T | undefined> {
    return storedReply<T>(this.dataSource, this.schema, idempotencyScope(context), this.box);
  }

  /**
   * An effect outside the database (a realtime publish) once per Idempotency-Key: with a key, the
   * key is claimed and the reply stored in one transaction around the effect; without one, the
   * effect runs at once and nothing touches the database.
   */
  runEffect<T>(context: RequestContext, effect: () => Promise<T>): Promise<T> {
    if (!context.idempotencyKey) return effect();
    return this.run(context, () => effect());
  }

  /**
   * For a write in a transaction of the caller's own (a group commit's, a lock's): claims the
   * request's key in it, answering the earlier request's reply when there was one; undefined
   * without a key, or when the key is claimed now (then `storeIn` keeps the reply).
   */
  claimIn<T>(runner: SqlRunner, context: RequestContext): Promise<{ reply: T } | undefined> {
    const scope = idempotencyScope(context);
    if (!scope.key) return Promise.resolve(undefined);
    return claimKey<T>(runner, this.schema, scope, this.box);
  }

  /** Stores (or replaces) the reply of a key `claimIn` claimed; nothing without a key. */
  async storeIn(runner: SqlRunner, context: RequestContext, reply: unknown): Promise<void> {
    const scope = idempotencyScope(context);
    if (scope.key) await storeReply(runner, this.schema, scope, this.box, reply);
  }

  /**
   * Drops the key `claimIn` claimed, for a call that ends in an error after its transaction
   * committed: a retry then meets the state the call left, as a first call would.
   */
  async forget(runner: SqlRunner, context: RequestContext): Promise<void> {
    const scope = idempotencyScope(context);
    if (scope.key) await forgetKey(runner, this.schema, scope);
  }
}
