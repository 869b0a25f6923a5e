import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Identity only: organizations, workspaces, credentials, users and sessions. */
export class CreateIdentity1763800000000 implements MigrationInterface {
  name = 'CreateIdentity1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE gateway.organizations (
        id text PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE gateway.workspaces (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES gateway.organizations(id),
        name text NOT NULL,
        region text NOT NULL,
        notification_emails text[] NOT NULL DEFAULT '{}',
        logo_url text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX workspaces_organization_idx ON gateway.workspaces (organization_id);
      CREATE TABLE gateway.api_keys (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES gateway.workspaces(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('read', 'write', 'admin')),
        lookup text NOT NULL UNIQUE,
        secret_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE TABLE gateway.access_keys (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES gateway.workspaces(id) ON DELETE CASCADE,
        lookup text NOT NULL UNIQUE,
        secret_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE TABLE gateway.users (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES gateway.workspaces(id) ON DELETE CASCADE,
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        role text NOT NULL CHECK (role IN ('read', 'write', 'admin')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE gateway.sessions (
        id text PRIMARY KEY,
        user_id text NOT NULL REFERENCES gateway.users(id) ON DELETE CASCADE,
        lookup text NOT NULL UNIQUE,
        secret_hash bytea NOT NULL,
        csrf_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        ended_at timestamptz
      );
      CREATE INDEX sessions_user_idx ON gateway.sessions (user_id);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'DROP TABLE gateway.sessions, gateway.users, gateway.access_keys, gateway.api_keys, gateway.workspaces, gateway.organizations',
    );
  }
}
