import { idempotencyRecordsTable } from '@switchboard/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Realtime apps and their keys (secrets sealed), plus the service's idempotency records. */
export class CreateRealtimeApps1763900000200 implements MigrationInterface {
  name = 'CreateRealtimeApps1763900000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE SEQUENCE realtime.app_number_seq START 100001;
      CREATE TABLE realtime.apps (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        app_id text NOT NULL UNIQUE DEFAULT nextval('realtime.app_number_seq')::text,
        name text NOT NULL,
        region text NOT NULL,
        status text NOT NULL DEFAULT 'active',
        connection_counting boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX apps_workspace_created_idx ON realtime.apps (workspace_id, created_at DESC, id DESC);
      CREATE INDEX apps_workspace_name_idx ON realtime.apps (workspace_id, name, id);
      CREATE TABLE realtime.app_keys (
        id text PRIMARY KEY,
        app_id text NOT NULL REFERENCES realtime.apps(id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        revoked_at timestamptz
      );
      CREATE INDEX app_keys_app_idx ON realtime.app_keys (app_id, created_at, id);
      ${idempotencyRecordsTable('realtime')}
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'DROP TABLE realtime.idempotency_records, realtime.app_keys, realtime.apps; DROP SEQUENCE realtime.app_number_seq',
    );
  }
}
