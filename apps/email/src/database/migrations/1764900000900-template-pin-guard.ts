import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The guard of a send by template pinned from a recently read live version: the accept's single
 * statement counts its pins that no longer match the template and calls this, which aborts the
 * statement (and everything it wrote) with SQLSTATE `SBT01` when any is stale. Plain SQL has no
 * way to raise an error, hence the function.
 */
export class TemplatePinGuard1764900000900 implements MigrationInterface {
  name = 'TemplatePinGuard1764900000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION email.refuse_stale_template_pins(stale bigint) RETURNS int
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        IF stale > 0 THEN
          RAISE EXCEPTION 'a template changed since its live version was read'
            USING ERRCODE = 'SBT01';
        END IF;
        RETURN stale;
      END
      $$
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION email.refuse_stale_template_pins(bigint)');
  }
}
