import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Number orders (the SDK's NumbersOrder, id `nor_`) and voice call records (VoiceCall, id
 * `vcl_`), and the indexes the operator's and the workspaces' lists walk. A call is one leg:
 * the SIP platform's reports of the same (session, direction, from, to) update one row.
 */
export class CreateNumberOrdersAndVoiceCalls1764400000300 implements MigrationInterface {
  name = 'CreateNumberOrdersAndVoiceCalls1764400000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX numbers_created_idx ON sms_whatsapp.numbers (created_at DESC, number DESC);
      CREATE INDEX sms_senders_workspace_created_idx
        ON sms_whatsapp.sms_senders (workspace_id, created_at DESC, id DESC);

      CREATE TABLE sms_whatsapp.number_orders (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        number text COLLATE "C" NOT NULL,
        country_code text NOT NULL,
        number_type text NOT NULL,
        status text NOT NULL
          CHECK (status IN ('charging', 'ordering', 'pending', 'completed', 'failed')),
        number_id text,
        failure_reason text,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX number_orders_workspace_idx
        ON sms_whatsapp.number_orders (workspace_id, created_at DESC, id DESC);

      CREATE TABLE sms_whatsapp.voice_calls (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        session_id text,
        direction text NOT NULL CHECK (direction IN ('inbound', 'outbound')),
        from_number text COLLATE "C" NOT NULL,
        to_number text COLLATE "C" NOT NULL,
        actor jsonb,
        sip_trunk_id text,
        status text NOT NULL,
        sip_response_code integer,
        rejection_reason text,
        route jsonb,
        tags jsonb,
        started_at timestamptz NOT NULL,
        answered_at timestamptz,
        ended_at timestamptz,
        duration_ms bigint,
        pdd_ms bigint,
        billable_ms bigint,
        media_quality jsonb,
        cost jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE UNIQUE INDEX voice_calls_leg_key
        ON sms_whatsapp.voice_calls (workspace_id, session_id, direction, from_number, to_number)
        WHERE session_id IS NOT NULL;
      CREATE INDEX voice_calls_workspace_started_idx
        ON sms_whatsapp.voice_calls (workspace_id, started_at DESC, id DESC);
      CREATE INDEX voice_calls_tags_idx
        ON sms_whatsapp.voice_calls USING gin (tags jsonb_path_ops);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE sms_whatsapp.voice_calls;
      DROP TABLE sms_whatsapp.number_orders;
      DROP INDEX sms_whatsapp.sms_senders_workspace_created_idx;
      DROP INDEX sms_whatsapp.numbers_created_idx;
    `);
  }
}
