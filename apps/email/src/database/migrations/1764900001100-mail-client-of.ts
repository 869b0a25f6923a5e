import type { MigrationInterface, QueryRunner } from 'typeorm';
import { mailClientSql } from '../../tracking/mail-clients';

/**
 * `email.mail_client_of(agent)`: `[email_client, os, device_type]` of an opener's user agent, for
 * the stats fold's client dimensions, rendered from the rules the service itself uses.
 * Immutable, so the fold calls it per group of facts for nothing.
 */
export class MailClientOf1764900001100 implements MigrationInterface {
  name = 'MailClientOf1764900001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION email.mail_client_of(agent text) RETURNS text[]
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ ${mailClientSql()} $$
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION email.mail_client_of(text)');
  }
}
