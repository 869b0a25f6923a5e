import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate limiting shared by gateway replicas: one counter per key (`org:<id>:<group>` or
 * `ip:<address>:<group>`) and fixed window (`window_start` in epoch seconds), and quota
 * overrides per organization and policy (group).
 *
 * `last_grant` is the size of the lease the row's last upsert granted: PostgreSQL before 18 has no
 * `RETURNING old.*`, so the upsert records the grant it computed from the pre-update `used`
 * in the row it returns, which keeps the lease one atomic statement.
 */
export class CreateRateLimits1763900000000 implements MigrationInterface {
  name = 'CreateRateLimits1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE gateway.rate_limit_windows (
        key text NOT NULL,
        window_start bigint NOT NULL,
        used integer NOT NULL DEFAULT 0 CHECK (used >= 0),
        last_grant integer NOT NULL DEFAULT 0 CHECK (last_grant >= 0),
        PRIMARY KEY (key, window_start)
      );
      CREATE INDEX rate_limit_windows_window_start_idx ON gateway.rate_limit_windows (window_start);
      CREATE TABLE gateway.rate_limit_overrides (
        organization_id text NOT NULL REFERENCES gateway.organizations(id) ON DELETE CASCADE,
        policy text NOT NULL,
        quota integer NOT NULL CHECK (quota >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, policy)
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE gateway.rate_limit_overrides;
      DROP TABLE gateway.rate_limit_windows;
    `);
  }
}
