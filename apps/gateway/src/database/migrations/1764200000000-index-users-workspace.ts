import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users by workspace: a workspace's user emails (who onboarding-domain mail may reach) are read
 * by workspace, and deleting a workspace cascades to its users.
 */
export class IndexUsersWorkspace1764200000000 implements MigrationInterface {
  name = 'IndexUsersWorkspace1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS users_workspace_idx ON gateway.users (workspace_id)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS gateway.users_workspace_idx');
  }
}
