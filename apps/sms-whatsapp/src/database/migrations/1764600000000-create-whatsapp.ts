import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * WhatsApp over Meta's Cloud API (ADR 0013): the connectors of the workspace API and the channel
 * groups they make; the business accounts and numbers they connect; templates synced from Meta;
 * messages both ways with their timelines, reactions, inbound media and service windows; the
 * inbox of signed webhooks, recorded before Meta gets its 200.
 *
 * Meta's ids are unique across Meta, so a WABA or a phone number id is held by one workspace at
 * a time (webhooks are routed by them). Meta's message id (wamid) is unique per direction, which
 * is what makes Meta's retried webhooks apply once.
 */
export class CreateWhatsapp1764600000000 implements MigrationInterface {
  name = 'CreateWhatsapp1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sms_whatsapp.whatsapp_business_accounts (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        waba text COLLATE "C" NOT NULL UNIQUE,
        name text NOT NULL,
        status text NOT NULL DEFAULT 'active',
        account_review_status text,
        business_verification_status text,
        marketing_messages_onboarding_status text,
        portfolio jsonb,
        ban jsonb,
        meta_synced_at timestamptz,
        templates_synced_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX whatsapp_business_accounts_workspace_idx
        ON sms_whatsapp.whatsapp_business_accounts (workspace_id, created_at DESC, id DESC);

      -- The SDK's WhatsAppNumber (wan_); channel_id is the workspace API's channel of it.
      CREATE TABLE sms_whatsapp.whatsapp_numbers (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        business_account_id text NOT NULL REFERENCES sms_whatsapp.whatsapp_business_accounts (id),
        phone_number_id text COLLATE "C" NOT NULL UNIQUE,
        phone_number text COLLATE "C",
        channel_id uuid NOT NULL UNIQUE,
        name text NOT NULL,
        status text NOT NULL,
        error jsonb,
        quality_rating text,
        messaging_limit text,
        throughput_level text,
        is_official_business_account boolean,
        data_localization_region text,
        meta_synced_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX whatsapp_numbers_workspace_idx
        ON sms_whatsapp.whatsapp_numbers (workspace_id, created_at DESC, id DESC);
      CREATE INDEX whatsapp_numbers_phone_idx
        ON sms_whatsapp.whatsapp_numbers (workspace_id, phone_number);

      CREATE TABLE sms_whatsapp.whatsapp_number_events (
        seq bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        workspace_id text NOT NULL,
        number_id text NOT NULL REFERENCES sms_whatsapp.whatsapp_numbers (id),
        type text NOT NULL,
        summary text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX whatsapp_number_events_number_idx
        ON sms_whatsapp.whatsapp_number_events (workspace_id, number_id, created_at DESC, seq DESC);

      -- Workspace API connectors; arguments are stored without secrets (pin, cpAccessKey).
      CREATE TABLE sms_whatsapp.connectors (
        id uuid PRIMARY KEY,
        workspace_id text NOT NULL,
        connector_template_ref text NOT NULL,
        name text NOT NULL,
        arguments jsonb NOT NULL,
        channel_id uuid NOT NULL,
        platform text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX connectors_workspace_idx
        ON sms_whatsapp.connectors (workspace_id, created_at DESC, id DESC);

      -- channelIds are the numbers of the group's account (whatsapp_numbers.channel_id).
      CREATE TABLE sms_whatsapp.channel_groups (
        id uuid PRIMARY KEY,
        workspace_id text NOT NULL,
        platform_id text NOT NULL,
        platform_group_id text COLLATE "C" NOT NULL,
        platform_group_name text,
        business_account_id text REFERENCES sms_whatsapp.whatsapp_business_accounts (id),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT channel_groups_platform_group_key UNIQUE (workspace_id, platform_id, platform_group_id)
      );
      CREATE INDEX channel_groups_workspace_idx
        ON sms_whatsapp.channel_groups (workspace_id, created_at DESC, id DESC);

      -- A template is Meta's template name within one account; its languages are Meta's
      -- templates of that name. A sync that changes what Meta holds makes a new version.
      CREATE TABLE sms_whatsapp.whatsapp_templates (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        business_account_id text NOT NULL REFERENCES sms_whatsapp.whatsapp_business_accounts (id),
        slug text COLLATE "C" NOT NULL,
        name text NOT NULL,
        description text,
        category text NOT NULL,
        status text NOT NULL,
        default_language text NOT NULL,
        on_missing_language text NOT NULL DEFAULT 'fail',
        live_version_id text,
        last_submitted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT whatsapp_templates_account_slug_key UNIQUE (business_account_id, slug)
      );
      CREATE INDEX whatsapp_templates_workspace_idx
        ON sms_whatsapp.whatsapp_templates (workspace_id, created_at DESC, id DESC);

      CREATE TABLE sms_whatsapp.whatsapp_template_versions (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        template_id text NOT NULL REFERENCES sms_whatsapp.whatsapp_templates (id),
        number int NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT whatsapp_template_versions_number_key UNIQUE (template_id, number)
      );

      CREATE TABLE sms_whatsapp.whatsapp_template_languages (
        version_id text NOT NULL REFERENCES sms_whatsapp.whatsapp_template_versions (id),
        language text COLLATE "C" NOT NULL,
        workspace_id text NOT NULL,
        meta_template_id text COLLATE "C" NOT NULL,
        components jsonb NOT NULL,
        status text NOT NULL,
        category text,
        previous_category text,
        quality text,
        rejection jsonb,
        revision int NOT NULL DEFAULT 1,
        content_hash text NOT NULL,
        submitted_at timestamptz NOT NULL,
        approved_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (version_id, language)
      );

      -- Both directions. contact_* is the person's side (to outbound, from inbound);
      -- provider_message_id is Meta's wamid, kept 15 days (then NULL).
      CREATE TABLE sms_whatsapp.whatsapp_messages (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        status text NOT NULL,
        number_id text NOT NULL REFERENCES sms_whatsapp.whatsapp_numbers (id),
        business_phone text COLLATE "C",
        contact_phone text COLLATE "C",
        contact_bsuid text COLLATE "C",
        contact_username text,
        contact_display_name text,
        country_code text NOT NULL DEFAULT 'ZZ',
        content_kind text NOT NULL,
        content jsonb NOT NULL,
        category text,
        template_id text,
        template_version_id text,
        template_language text,
        in_reply_to_message_id text,
        interactive_reply jsonb,
        unsupported jsonb,
        reaction jsonb,
        inbound_reaction jsonb,
        provider_message_id text COLLATE "C",
        last_error_code text,
        last_error_description text,
        last_error_meta_code int,
        last_error_at timestamptz,
        tags jsonb NOT NULL DEFAULT '[]',
        metadata jsonb NOT NULL DEFAULT '{}',
        idempotency_key text,
        created_at timestamptz NOT NULL,
        sent_at timestamptz,
        delivered_at timestamptz,
        read_at timestamptz,
        failed_at timestamptz,
        status_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX whatsapp_messages_provider_key
        ON sms_whatsapp.whatsapp_messages (direction, provider_message_id)
        WHERE provider_message_id IS NOT NULL;
      CREATE INDEX whatsapp_messages_workspace_created_idx
        ON sms_whatsapp.whatsapp_messages (workspace_id, created_at DESC, id DESC);
      CREATE INDEX whatsapp_messages_status_idx
        ON sms_whatsapp.whatsapp_messages (workspace_id, status, created_at DESC, id DESC);
      CREATE INDEX whatsapp_messages_contact_phone_idx
        ON sms_whatsapp.whatsapp_messages (workspace_id, contact_phone, created_at DESC, id DESC);
      CREATE INDEX whatsapp_messages_contact_bsuid_idx
        ON sms_whatsapp.whatsapp_messages (workspace_id, contact_bsuid, created_at DESC, id DESC)
        WHERE contact_bsuid IS NOT NULL;
      CREATE INDEX whatsapp_messages_tags_idx
        ON sms_whatsapp.whatsapp_messages USING gin (tags jsonb_path_ops);

      CREATE TABLE sms_whatsapp.whatsapp_message_events (
        seq bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        message_id text NOT NULL,
        workspace_id text NOT NULL,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        error jsonb
      );
      -- One event of a type per message: Meta's retried status webhooks apply once.
      CREATE UNIQUE INDEX whatsapp_message_events_type_key
        ON sms_whatsapp.whatsapp_message_events (message_id, type);
      CREATE INDEX whatsapp_message_events_message_idx
        ON sms_whatsapp.whatsapp_message_events (workspace_id, message_id, occurred_at, seq);

      -- The reaction log of a message (emoji NULL = removal), both directions.
      CREATE TABLE sms_whatsapp.whatsapp_reaction_events (
        seq bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        workspace_id text NOT NULL,
        message_id text NOT NULL,
        emoji text,
        status text NOT NULL,
        direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        from_address jsonb NOT NULL,
        provider_message_id text COLLATE "C",
        error jsonb,
        occurred_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX whatsapp_reaction_events_provider_key
        ON sms_whatsapp.whatsapp_reaction_events (direction, provider_message_id)
        WHERE provider_message_id IS NOT NULL;
      CREATE INDEX whatsapp_reaction_events_message_idx
        ON sms_whatsapp.whatsapp_reaction_events (workspace_id, message_id, occurred_at DESC, seq DESC);

      -- Inbound media (waf_): fetched from Meta after the webhook, bytes kept 30 days.
      CREATE TABLE sms_whatsapp.whatsapp_media (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        message_id text NOT NULL,
        meta_media_id text COLLATE "C" NOT NULL,
        mime_type text,
        sha256 text,
        filename text,
        size_bytes bigint,
        bytes bytea,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'stored', 'failed', 'expired')),
        error text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        fetched_at timestamptz,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX whatsapp_media_message_idx
        ON sms_whatsapp.whatsapp_media (workspace_id, message_id);
      CREATE INDEX whatsapp_media_expiry_idx
        ON sms_whatsapp.whatsapp_media (expires_at) WHERE status <> 'expired';

      -- The customer-service window per (number, person): last inbound message or call.
      CREATE TABLE sms_whatsapp.whatsapp_service_windows (
        number_id text NOT NULL REFERENCES sms_whatsapp.whatsapp_numbers (id),
        contact text COLLATE "C" NOT NULL,
        workspace_id text NOT NULL,
        last_inbound_at timestamptz NOT NULL,
        PRIMARY KEY (number_id, contact)
      );

      -- Signed webhook payloads as received, stored before the 200; processed from the work queue.
      CREATE TABLE sms_whatsapp.whatsapp_webhook_inbox (
        id bigserial PRIMARY KEY,
        body text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        processed_at timestamptz,
        error text
      );
      CREATE INDEX whatsapp_webhook_inbox_pending_idx
        ON sms_whatsapp.whatsapp_webhook_inbox (id) WHERE processed_at IS NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE sms_whatsapp.whatsapp_webhook_inbox, sms_whatsapp.whatsapp_service_windows,
        sms_whatsapp.whatsapp_media, sms_whatsapp.whatsapp_reaction_events,
        sms_whatsapp.whatsapp_message_events, sms_whatsapp.whatsapp_messages,
        sms_whatsapp.whatsapp_template_languages, sms_whatsapp.whatsapp_template_versions,
        sms_whatsapp.whatsapp_templates, sms_whatsapp.channel_groups, sms_whatsapp.connectors,
        sms_whatsapp.whatsapp_number_events, sms_whatsapp.whatsapp_numbers,
        sms_whatsapp.whatsapp_business_accounts;
    `);
  }
}
