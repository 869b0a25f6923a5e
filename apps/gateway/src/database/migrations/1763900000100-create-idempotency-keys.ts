import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The gateway's idempotency records: the first outcome of a key, replayed to its retries. */
export class CreateIdempotencyKeys1763900000100 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1763900000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE gateway.idempotency_keys (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        status integer,
        outcome_sealed text,
        locked_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX idempotency_keys_expires_idx ON gateway.idempotency_keys (expires_at);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE gateway.idempotency_keys');
  }
}
