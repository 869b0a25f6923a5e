import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The conversations-connectors service's own schema; its product tables arrive with the conversations, connectors and channel groups of the workspace API issue. */
export class CreateConversationsConnectorsSchema1763800000600 implements MigrationInterface {
  name = 'CreateConversationsConnectorsSchema1763800000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS "conversations_connectors"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS "conversations_connectors" CASCADE');
  }
}
