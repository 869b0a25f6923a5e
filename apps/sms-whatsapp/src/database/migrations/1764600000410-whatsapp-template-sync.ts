import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the template sync and Meta's template webhooks need beyond the WhatsApp tables: the
 * quality rating a language moved from and when (the SDK's `quality.previous_score` and
 * `updated_at`), and the lookup of a language by Meta's template id, which is how
 * `message_template_status_update` webhooks name it.
 */
export class WhatsappTemplateSync1764600000410 implements MigrationInterface {
  name = 'WhatsappTemplateSync1764600000410';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sms_whatsapp.whatsapp_template_languages
        ADD COLUMN quality_previous text,
        ADD COLUMN quality_updated_at timestamptz;
      CREATE INDEX whatsapp_template_languages_meta_idx
        ON sms_whatsapp.whatsapp_template_languages (meta_template_id);
      CREATE INDEX whatsapp_template_versions_template_idx
        ON sms_whatsapp.whatsapp_template_versions (workspace_id, template_id, number DESC, id DESC);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX sms_whatsapp.whatsapp_template_versions_template_idx;
      DROP INDEX sms_whatsapp.whatsapp_template_languages_meta_idx;
      ALTER TABLE sms_whatsapp.whatsapp_template_languages
        DROP COLUMN quality_previous, DROP COLUMN quality_updated_at;
    `);
  }
}
