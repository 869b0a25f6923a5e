import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `email.mailbox_provider_of(domain)`: the mailbox provider of a recipient domain, for the stats
 * fold's `mailbox_provider` dimension: the lists of `messages/mailbox-providers.ts` as they were,
 * frozen here (a spec holds the migrated function to what those lists render now: a change to
 * them needs a migration that replaces it). One `CASE`, no `FROM`: inlined into the fold.
 */
export class MailboxProviderOf1764900001000 implements MigrationInterface {
  name = 'MailboxProviderOf1764900001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(String.raw`
      CREATE FUNCTION email.mailbox_provider_of(domain text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN lower(domain) IN ('gmail.com', 'googlemail.com') THEN 'gmail'
          WHEN lower(domain) IN ('aol.com', 'aim.com', 'aol.co.uk', 'aol.de', 'aol.fr', 'verizon.net', 'att.net', 'sbcglobal.net', 'bellsouth.net', 'frontier.com') THEN 'yahoo'
          WHEN lower(domain) IN ('icloud.com', 'me.com', 'mac.com') THEN 'apple'
          WHEN lower(domain) IN ('proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me') THEN 'proton'
          WHEN lower(domain) IN ('gmx.com', 'gmx.net', 'gmx.de', 'gmx.at', 'gmx.ch', 'gmx.fr', 'gmx.co.uk', 'web.de', 'mail.com') THEN 'gmx'
          WHEN lower(domain) IN ('t-online.de', 'magenta.de') THEN 't-online'
          WHEN lower(domain) IN ('orange.fr', 'wanadoo.fr') THEN 'orange'
          WHEN lower(domain) IN ('free.fr') THEN 'free'
          WHEN lower(domain) IN ('libero.it') THEN 'libero'
          WHEN lower(domain) IN ('comcast.net', 'xfinity.com') THEN 'comcast'
          WHEN lower(domain) IN ('zoho.com', 'zohomail.com', 'zohomail.eu') THEN 'zoho'
          WHEN lower(domain) IN ('fastmail.com', 'fastmail.fm') THEN 'fastmail'
          WHEN lower(domain) IN ('yandex.ru', 'yandex.com', 'ya.ru') THEN 'yandex'
          WHEN lower(domain) IN ('mail.ru', 'bk.ru', 'inbox.ru', 'list.ru') THEN 'mail.ru'
          WHEN lower(domain) IN ('qq.com', 'foxmail.com') THEN 'tencent'
          WHEN lower(domain) IN ('163.com', '126.com', 'yeah.net') THEN 'netease'
          WHEN lower(domain) IN ('naver.com') THEN 'naver'
          WHEN lower(domain) ~ '^(outlook|hotmail|live|msn|windowslive|passport)\.((co|com)\.)?[a-z]{2,3}$' THEN 'microsoft'
          WHEN lower(domain) ~ '^(yahoo|ymail|rocketmail)\.((co|com)\.)?[a-z]{2,3}$' THEN 'yahoo' END
      $$
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION email.mailbox_provider_of(text)');
  }
}
