import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email messages: the message, its recipients (one row per to/cc/bcc address), its event
 * timeline, its content (the bodies and attachments as sent, kept for delivery retries and for
 * `/content` until the retention ends), and the per-day counter of onboarding-domain sends.
 */
export class CreateEmailMessages1764000000300 implements MigrationInterface {
  name = 'CreateEmailMessages1764000000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email.messages (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        from_email text NOT NULL,
        from_name text,
        sender_domain text NOT NULL,
        onboarding boolean NOT NULL,
        to_addresses jsonb NOT NULL,
        cc_addresses jsonb NOT NULL,
        bcc_addresses jsonb NOT NULL,
        reply_to jsonb NOT NULL,
        subject text NOT NULL,
        category text NOT NULL,
        status text NOT NULL,
        tags jsonb NOT NULL,
        metadata jsonb,
        parameters jsonb,
        headers jsonb NOT NULL,
        attachments jsonb NOT NULL,
        track_opens boolean NOT NULL,
        track_clicks boolean NOT NULL,
        ip_pool_id text,
        accepted_count int NOT NULL DEFAULT 0,
        processed_count int NOT NULL DEFAULT 0,
        delivered_count int NOT NULL DEFAULT 0,
        bounced_count int NOT NULL DEFAULT 0,
        complained_count int NOT NULL DEFAULT 0,
        deferred_count int NOT NULL DEFAULT 0,
        rejected_count int NOT NULL DEFAULT 0,
        processing_latency_ms int,
        delivery_latency_ms int,
        total_latency_ms int,
        scheduled_at timestamptz,
        created_at timestamptz NOT NULL,
        processed_at timestamptz,
        delivered_at timestamptz,
        canceled_at timestamptz
      );
      CREATE INDEX messages_workspace_created_idx ON email.messages (workspace_id, created_at DESC, id DESC);
      CREATE INDEX messages_workspace_status_idx ON email.messages (workspace_id, status, created_at DESC, id DESC);
      CREATE INDEX messages_workspace_from_idx ON email.messages (workspace_id, from_email, created_at DESC);
      CREATE INDEX messages_tags_idx ON email.messages USING gin (tags jsonb_path_ops);

      CREATE TABLE email.recipients (
        id text PRIMARY KEY,
        message_id text NOT NULL REFERENCES email.messages(id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        position int NOT NULL,
        role text NOT NULL,
        email text NOT NULL,
        name text,
        allowed boolean NOT NULL,
        status text NOT NULL,
        rejection_reason text,
        bounce_type text,
        bounce_code text,
        bounce_description text,
        attempts int NOT NULL DEFAULT 0,
        first_deferred_at timestamptz,
        processed_at timestamptz,
        delivered_at timestamptz,
        finished_at timestamptz,
        open_count int NOT NULL DEFAULT 0,
        click_count int NOT NULL DEFAULT 0
      );
      CREATE INDEX recipients_message_idx ON email.recipients (message_id, position);
      CREATE INDEX recipients_workspace_email_idx ON email.recipients (workspace_id, email, message_id);

      CREATE TABLE email.events (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        message_id text NOT NULL REFERENCES email.messages(id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        recipient_id text,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}'
      );
      CREATE INDEX events_message_idx ON email.events (message_id, seq);

      CREATE TABLE email.contents (
        message_id text PRIMARY KEY REFERENCES email.messages(id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        html text,
        text text,
        attachments jsonb NOT NULL,
        generated_at timestamptz,
        expires_at timestamptz,
        purged boolean NOT NULL DEFAULT false
      );
      CREATE INDEX contents_expiry_idx ON email.contents (expires_at) WHERE NOT purged;

      CREATE TABLE email.onboarding_usage (
        workspace_id text NOT NULL,
        day date NOT NULL,
        sent int NOT NULL,
        PRIMARY KEY (workspace_id, day)
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'DROP TABLE email.onboarding_usage, email.contents, email.events, email.recipients, email.messages',
    );
  }
}
