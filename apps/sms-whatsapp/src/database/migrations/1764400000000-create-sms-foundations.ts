import { idempotencyRecordsTable } from '@switchboard/persistence';
import { outboxTable, workQueueTable } from '@switchboard/background';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What every SMS feature writes through (the idempotency records of its writes, the work queue,
 * the outbox its events leave by), and the tables the SMS send path reads in its one statement, besides its own messages: the numbers
 * the operator stocks and the workspaces hold, the alphanumeric senders the operator registers,
 * and the suppression episodes per (originator, destination). Numbers are stored in E.164 with
 * the `+`; an alphanumeric sender as registered.
 */
export class CreateSmsFoundations1764400000000 implements MigrationInterface {
  name = 'CreateSmsFoundations1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ${idempotencyRecordsTable('sms_whatsapp')}
      ${workQueueTable('sms_whatsapp')}
      ${outboxTable('sms_whatsapp')}

      CREATE TABLE sms_whatsapp.numbers (
        number text COLLATE "C" PRIMARY KEY,
        country_code text NOT NULL,
        number_type text NOT NULL,
        capabilities text[] NOT NULL,
        kind text NOT NULL DEFAULT 'dedicated' CHECK (kind IN ('dedicated', 'shared')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX numbers_country_idx ON sms_whatsapp.numbers (country_code, number);

      -- A workspace's holding of a number (the SDK's Number, id nda_): one holder at a time.
      CREATE TABLE sms_whatsapp.number_allocations (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        number text COLLATE "C" NOT NULL REFERENCES sms_whatsapp.numbers (number),
        status text NOT NULL DEFAULT 'active'
          CHECK (status IN ('active', 'pending_compliance', 'released')),
        allocated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        released_at timestamptz
      );
      CREATE UNIQUE INDEX number_allocations_held_key
        ON sms_whatsapp.number_allocations (number) WHERE released_at IS NULL;
      CREATE INDEX number_allocations_workspace_idx
        ON sms_whatsapp.number_allocations (workspace_id, allocated_at DESC, id DESC);

      -- Alphanumeric senders the operator registered for a workspace; categories NULL = all.
      CREATE TABLE sms_whatsapp.sms_senders (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        sender text COLLATE "C" NOT NULL,
        categories text[],
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT sms_senders_workspace_sender_key UNIQUE (workspace_id, sender)
      );

      -- One opt-out episode per row; in force while ended_at IS NULL, one per reason and pair.
      CREATE TABLE sms_whatsapp.sms_suppressions (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        destination text COLLATE "C" NOT NULL,
        originator text COLLATE "C" NOT NULL,
        reason text NOT NULL,
        origin text NOT NULL,
        applies_to text NOT NULL DEFAULT 'all',
        source_sms_id text,
        effective_at timestamptz NOT NULL,
        ended_at timestamptz,
        ended_reason text,
        ended_effective_at timestamptz,
        source_end_sms_id text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_asserted_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX sms_suppressions_in_force_key
        ON sms_whatsapp.sms_suppressions (workspace_id, originator, destination, reason)
        WHERE ended_at IS NULL;
      CREATE INDEX sms_suppressions_workspace_created_idx
        ON sms_whatsapp.sms_suppressions (workspace_id, created_at DESC, id DESC);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE sms_whatsapp.sms_suppressions;
      DROP TABLE sms_whatsapp.sms_senders;
      DROP TABLE sms_whatsapp.number_allocations;
      DROP TABLE sms_whatsapp.numbers;
      DROP TABLE sms_whatsapp.outbox, sms_whatsapp.jobs, sms_whatsapp.idempotency_records;
    `);
  }
}
