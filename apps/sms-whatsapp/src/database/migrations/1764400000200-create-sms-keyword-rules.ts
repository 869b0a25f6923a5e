import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The keyword rules workspaces create (`skw_`); the defaults (`sks_`) ship as data. One rule per
 * (operation, country, language, number) in a workspace: a second would leave which one answers
 * to the order of rows. `keywords` holds the rule's own additions, normalised (upper case, no
 * accents); NULL `reply` with `reply_disabled_at` set means the workspace sends it itself.
 * Also the suppression list's order (episodes in force, most recent opt-out first) and its
 * `destination` filter, which the foundations' indexes do not serve.
 */
export class CreateSmsKeywordRules1764400000200 implements MigrationInterface {
  name = 'CreateSmsKeywordRules1764400000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sms_whatsapp.sms_keyword_rules (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        operation text NOT NULL,
        country text,
        language text,
        number text COLLATE "C",
        keywords text[] NOT NULL DEFAULT '{}',
        reply text,
        reply_disabled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE UNIQUE INDEX sms_keyword_rules_scope_key ON sms_whatsapp.sms_keyword_rules
        (workspace_id, operation, coalesce(country, ''), coalesce(language, ''), coalesce(number, ''));

      CREATE INDEX sms_suppressions_in_force_effective_idx ON sms_whatsapp.sms_suppressions
        (workspace_id, effective_at DESC, id DESC) WHERE ended_at IS NULL;
      CREATE INDEX sms_suppressions_in_force_destination_idx ON sms_whatsapp.sms_suppressions
        (workspace_id, destination) WHERE ended_at IS NULL;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX sms_whatsapp.sms_suppressions_in_force_destination_idx;
      DROP INDEX sms_whatsapp.sms_suppressions_in_force_effective_idx;
      DROP TABLE sms_whatsapp.sms_keyword_rules;
    `);
  }
}
