import { idempotencyRecordsTable } from '@switchboard/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contacts (each identifier unique per workspace, at least an email or a phone number), contact
 * properties, static audiences and their members, and the service's idempotency records.
 */
export class CreateContacts1764200000500 implements MigrationInterface {
  name = 'CreateContacts1764200000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE workspace_objects.contacts (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        email text,
        phone_number text,
        external_id text,
        first_name text,
        last_name text,
        data jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT contacts_identifier CHECK (email IS NOT NULL OR phone_number IS NOT NULL)
      );
      CREATE UNIQUE INDEX contacts_email_key ON workspace_objects.contacts (workspace_id, email)
        WHERE email IS NOT NULL;
      CREATE UNIQUE INDEX contacts_phone_key ON workspace_objects.contacts (workspace_id, phone_number)
        WHERE phone_number IS NOT NULL;
      CREATE UNIQUE INDEX contacts_external_id_key ON workspace_objects.contacts (workspace_id, external_id)
        WHERE external_id IS NOT NULL;
      CREATE INDEX contacts_workspace_created_idx
        ON workspace_objects.contacts (workspace_id, created_at DESC, id DESC);

      CREATE TABLE workspace_objects.contact_properties (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        key text NOT NULL,
        type text NOT NULL,
        fallback_value jsonb,
        archived boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT contact_properties_key UNIQUE (workspace_id, key)
      );
      CREATE INDEX contact_properties_workspace_created_idx
        ON workspace_objects.contact_properties (workspace_id, created_at DESC, id DESC);

      CREATE TABLE workspace_objects.audiences (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        name text NOT NULL,
        description text,
        type text NOT NULL DEFAULT 'static',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX audiences_workspace_created_idx
        ON workspace_objects.audiences (workspace_id, created_at DESC, id DESC);

      CREATE TABLE workspace_objects.audience_members (
        audience_id text NOT NULL REFERENCES workspace_objects.audiences(id) ON DELETE CASCADE,
        contact_id text NOT NULL REFERENCES workspace_objects.contacts(id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        joined_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (audience_id, contact_id)
      );
      CREATE INDEX audience_members_joined_idx
        ON workspace_objects.audience_members (audience_id, joined_at DESC, contact_id DESC);
      CREATE INDEX audience_members_contact_idx
        ON workspace_objects.audience_members (contact_id, joined_at DESC);
      ${idempotencyRecordsTable('workspace_objects')}
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE workspace_objects.idempotency_records, workspace_objects.audience_members,
        workspace_objects.audiences, workspace_objects.contact_properties, workspace_objects.contacts
    `);
  }
}
