import type { MigrationInterface, QueryRunner } from 'typeorm';
import { mailboxProviderSql } from '../../messages/mailbox-providers';

/**
 * `email.mailbox_provider_of(domain)`: the mailbox provider of a recipient domain, for the stats
 * fold's `mailbox_provider` dimension, rendered from the lists events use. Immutable, so the fold
 * calls it per group of facts for nothing.
 */
export class MailboxProviderOf1764900001000 implements MigrationInterface {
  name = 'MailboxProviderOf1764900001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION email.mailbox_provider_of(domain text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ ${mailboxProviderSql()} $$
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION email.mailbox_provider_of(text)');
  }
}
