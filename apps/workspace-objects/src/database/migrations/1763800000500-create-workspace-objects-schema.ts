import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The workspace-objects service's own schema; its product tables arrive with the custom object types and records of the workspace API issue. */
export class CreateWorkspaceObjectsSchema1763800000500 implements MigrationInterface {
  name = 'CreateWorkspaceObjectsSchema1763800000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "workspace_objects"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS "workspace_objects" CASCADE');
  }
}
