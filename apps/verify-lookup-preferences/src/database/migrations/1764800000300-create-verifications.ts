import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verifications, addressed by recipient: at most one `pending` per (workspace, recipient key).
 * Codes are kept only as keyed hashes (`code_hashes`, earlier codes stay valid after a resend;
 * `code_attempts` names the attempt each was first sent with);
 * every send is an attempt, and the attempts that spent a send slot count toward the
 * recipient's hourly cap. An attempt keeps, while `sending`, the seed its passcode is derived
 * from with the service's key (never the passcode), so one still `sending` after a crash is
 * sent again; the seed is erased once the channel answered.
 */
export class CreateVerifications1764800000300 implements MigrationInterface {
  name = 'CreateVerifications1764800000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE verify_lookup_preferences.verifications (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        recipient_key text NOT NULL,
        email text,
        phone_number text,
        status text NOT NULL CHECK (status IN
          ('pending', 'verified', 'failed', 'expired', 'canceled', 'blocked')),
        reason text,
        channels text[] NOT NULL,
        channel_index int NOT NULL DEFAULT 0,
        last_channel text,
        language text NOT NULL,
        code_length int NOT NULL,
        code_hashes bytea[] NOT NULL DEFAULT '{}',
        code_attempts text[] NOT NULL DEFAULT '{}',
        checks int NOT NULL DEFAULT 0,
        max_checks int NOT NULL,
        metadata jsonb,
        last_sent_at timestamptz,
        expires_at timestamptz NOT NULL,
        verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE UNIQUE INDEX verifications_pending_idx ON verify_lookup_preferences.verifications
        (workspace_id, recipient_key) WHERE status = 'pending';

      CREATE TABLE verify_lookup_preferences.verification_attempts (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        verification_id text NOT NULL REFERENCES verify_lookup_preferences.verifications (id),
        channel text NOT NULL,
        address text NOT NULL,
        passcode_seed text,
        sender text,
        message_id text,
        status text NOT NULL CHECK (status IN ('sending', 'sent', 'delivered', 'undelivered')),
        reason text,
        error text,
        counts_toward_cap boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX verification_attempts_cap_idx ON verify_lookup_preferences.verification_attempts
        (workspace_id, address, created_at) WHERE counts_toward_cap;
      CREATE INDEX verification_attempts_sending_idx
        ON verify_lookup_preferences.verification_attempts (updated_at) WHERE status = 'sending';
      CREATE INDEX verification_attempts_message_idx
        ON verify_lookup_preferences.verification_attempts (message_id)
        WHERE message_id IS NOT NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE verify_lookup_preferences.verification_attempts;
      DROP TABLE verify_lookup_preferences.verifications;
    `);
  }
}
