import { workQueueOwnerColumn } from '@switchboard/background';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SMS messages, both directions, with what stats will group by later (country of `to`,
 * category, carrier, mcc_mnc, error code, tags, the times of each step); their timelines; the
 * carrier's id of each submitted part, for matching delivery receipts; the inbox of receipts
 * recorded before the carrier is answered; inbound messages no workspace holds the number of.
 * It also gives the work queue its `locked_by` column, which the queue's claims set.
 */
export class CreateSmsMessages1764400000100 implements MigrationInterface {
  name = 'CreateSmsMessages1764400000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ${workQueueOwnerColumn('sms_whatsapp')}

      CREATE TABLE sms_whatsapp.sms_messages (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        status text NOT NULL,
        from_address text COLLATE "C" NOT NULL,
        to_address text COLLATE "C" NOT NULL,
        -- ISO 3166 of the person's number (to outbound, from inbound); ZZ when unknown.
        country_code text NOT NULL,
        category text,
        -- The body as sent; an authentication body is kept for the submit only and read back redacted.
        text text NOT NULL,
        segments int NOT NULL,
        encoding text NOT NULL CHECK (encoding IN ('GSM_7BIT', 'UCS2')),
        characters int NOT NULL,
        smart_encoding boolean,
        tags jsonb NOT NULL DEFAULT '[]',
        metadata jsonb NOT NULL DEFAULT '{}',
        template_id text,
        template_language text,
        carrier text,
        mcc_mnc text,
        -- Parts the carrier accepted (receipts are counted against it).
        parts int,
        last_error_code text,
        last_error_description text,
        last_error_carrier_code text,
        last_error_at timestamptz,
        idempotency_key text,
        created_at timestamptz NOT NULL,
        sent_at timestamptz,
        delivered_at timestamptz,
        status_at timestamptz NOT NULL
      );
      CREATE INDEX sms_messages_workspace_created_idx
        ON sms_whatsapp.sms_messages (workspace_id, created_at DESC, id DESC);
      CREATE INDEX sms_messages_status_idx
        ON sms_whatsapp.sms_messages (workspace_id, status, created_at DESC, id DESC);
      CREATE INDEX sms_messages_to_idx
        ON sms_whatsapp.sms_messages (workspace_id, to_address, created_at DESC, id DESC);
      CREATE INDEX sms_messages_from_idx
        ON sms_whatsapp.sms_messages (workspace_id, from_address, created_at DESC, id DESC);
      CREATE INDEX sms_messages_error_idx
        ON sms_whatsapp.sms_messages (workspace_id, last_error_code, created_at DESC, id DESC)
        WHERE last_error_code IS NOT NULL;
      CREATE INDEX sms_messages_tags_idx
        ON sms_whatsapp.sms_messages USING gin (tags jsonb_path_ops);

      CREATE TABLE sms_whatsapp.sms_message_events (
        seq bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        message_id text NOT NULL,
        workspace_id text NOT NULL,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        carrier text,
        mcc_mnc text,
        error jsonb
      );
      CREATE INDEX sms_message_events_message_idx
        ON sms_whatsapp.sms_message_events (workspace_id, message_id, occurred_at, seq);

      -- One row per submitted part. match_key: the carrier's id lowercased without leading
      -- zeros (carrierMessageIdKey); a receipt's id comes in the same form (the carrier layer
      -- turns a carrier's other base back, per its receipt_ids setting), so the match is equality.
      CREATE TABLE sms_whatsapp.sms_message_parts (
        message_id text NOT NULL,
        part_index int NOT NULL,
        workspace_id text NOT NULL,
        carrier text NOT NULL,
        carrier_message_id text NOT NULL,
        match_key text NOT NULL,
        stat text,
        err text,
        final boolean NOT NULL DEFAULT false,
        receipt_at timestamptz,
        PRIMARY KEY (message_id, part_index)
      );
      CREATE INDEX sms_message_parts_match_idx
        ON sms_whatsapp.sms_message_parts (carrier, match_key);

      -- A receipt is stored here (with its job) before the carrier gets its deliver_sm_resp.
      CREATE TABLE sms_whatsapp.sms_receipts (
        id bigserial PRIMARY KEY,
        carrier text NOT NULL,
        carrier_message_id text NOT NULL,
        match_key text NOT NULL,
        stat text NOT NULL,
        err text,
        done_at timestamptz,
        received_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );

      -- Inbound messages to a number no workspace holds: kept for the operator, answered to the carrier.
      CREATE TABLE sms_whatsapp.sms_unroutable_inbound (
        id bigserial PRIMARY KEY,
        carrier text NOT NULL,
        from_address text NOT NULL,
        to_address text NOT NULL,
        text text NOT NULL,
        received_at timestamptz NOT NULL
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sms_whatsapp.jobs DROP COLUMN locked_by;
      DROP TABLE sms_whatsapp.sms_unroutable_inbound, sms_whatsapp.sms_receipts,
        sms_whatsapp.sms_message_parts, sms_whatsapp.sms_message_events, sms_whatsapp.sms_messages;
    `);
  }
}
