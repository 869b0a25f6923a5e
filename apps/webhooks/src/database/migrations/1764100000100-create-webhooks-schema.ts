import { idempotencyRecordsTable } from '@switchboard/persistence';
import { workQueueTable } from '@switchboard/background';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhooks service's schema: endpoints and their signing secrets (sealed), the events it
 * received from the bus (kept for retries and replays), one delivery per endpoint and event
 * (its id is the `webhook-id` header, stable across retries), every attempt, the work queue of
 * deliveries and the idempotency records of its writes.
 */
export class CreateWebhooksSchema1764100000100 implements MigrationInterface {
  name = 'CreateWebhooksSchema1764100000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE SCHEMA IF NOT EXISTS webhooks;
      ${idempotencyRecordsTable('webhooks')}
      ${workQueueTable('webhooks')}
      CREATE TABLE webhooks.endpoints (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        url text NOT NULL,
        description text,
        events text[] NOT NULL,
        status text NOT NULL DEFAULT 'active',
        status_reason text,
        consecutive_failures integer NOT NULL DEFAULT 0,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX endpoints_workspace_created_idx
        ON webhooks.endpoints (workspace_id, created_at DESC, id DESC);
      CREATE INDEX endpoints_workspace_url_idx ON webhooks.endpoints (workspace_id, url, id);
      CREATE TABLE webhooks.secrets (
        id text PRIMARY KEY,
        endpoint_id text NOT NULL REFERENCES webhooks.endpoints(id) ON DELETE CASCADE,
        secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz
      );
      CREATE INDEX secrets_endpoint_idx ON webhooks.secrets (endpoint_id);
      CREATE TABLE webhooks.events (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        type text NOT NULL,
        body jsonb NOT NULL,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX events_workspace_occurred_idx ON webhooks.events (workspace_id, occurred_at);
      CREATE INDEX events_received_idx ON webhooks.events (received_at);
      CREATE TABLE webhooks.deliveries (
        id text PRIMARY KEY,
        endpoint_id text NOT NULL REFERENCES webhooks.endpoints(id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        event_id text NOT NULL REFERENCES webhooks.events(id) ON DELETE CASCADE,
        origin text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      );
      -- One delivery per endpoint and event from the bus, however often the bus redelivers it;
      -- replays add deliveries of their own.
      CREATE UNIQUE INDEX deliveries_endpoint_event_key
        ON webhooks.deliveries (endpoint_id, event_id) WHERE origin = 'event';
      CREATE INDEX deliveries_endpoint_event_idx ON webhooks.deliveries (endpoint_id, event_id);
      CREATE INDEX deliveries_event_idx ON webhooks.deliveries (event_id);
      CREATE TABLE webhooks.attempts (
        id text PRIMARY KEY,
        delivery_id text NOT NULL REFERENCES webhooks.deliveries(id) ON DELETE CASCADE,
        endpoint_id text NOT NULL REFERENCES webhooks.endpoints(id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        event_id text,
        event_type text NOT NULL,
        status text NOT NULL,
        url text NOT NULL,
        response_status_code integer,
        response_body text,
        response_duration_ms integer NOT NULL,
        error text,
        attempted_at timestamptz NOT NULL
      );
      CREATE INDEX attempts_endpoint_time_idx
        ON webhooks.attempts (endpoint_id, attempted_at DESC, id DESC);
      CREATE INDEX attempts_delivery_idx ON webhooks.attempts (delivery_id);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS webhooks CASCADE');
  }
}
