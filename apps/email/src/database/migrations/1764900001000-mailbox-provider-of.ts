import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A family of domains a provider serves in many countries: `hotmail.co.uk`, `yahoo.fr`, ... */
const regional = (names: string) => `domain ~ '^(${names})\\.((co|com)\\.)?[a-z]{2,3}$'`;

/**
 * The mailbox provider of a recipient domain, as the stats' `mailbox_provider` classifier
 * (`gmail`, `microsoft`, `yahoo`, `apple`, ...), or null: the consumer domains of the largest
 * providers. A company's own domain hosted by one of them is not recognised by its name, and
 * stays unclassified. Immutable, so the fold can call it per group of facts for nothing.
 */
export class MailboxProviderOf1764900001000 implements MigrationInterface {
  name = 'MailboxProviderOf1764900001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION email.mailbox_provider_of(domain text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN domain IN ('gmail.com', 'googlemail.com') THEN 'gmail'
          WHEN ${regional('outlook|hotmail|live|msn|windowslive|passport')} THEN 'microsoft'
          WHEN ${regional('yahoo|ymail|rocketmail')}
            OR domain IN ('aol.com', 'aim.com', 'aol.co.uk', 'aol.de', 'aol.fr', 'verizon.net',
              'att.net', 'sbcglobal.net', 'bellsouth.net', 'frontier.com') THEN 'yahoo'
          WHEN domain IN ('icloud.com', 'me.com', 'mac.com') THEN 'apple'
          WHEN domain IN ('proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me') THEN 'proton'
          WHEN domain IN ('gmx.com', 'gmx.net', 'gmx.de', 'gmx.at', 'gmx.ch', 'gmx.fr',
              'gmx.co.uk', 'web.de', 'mail.com') THEN 'gmx'
          WHEN domain IN ('t-online.de', 'magenta.de') THEN 't-online'
          WHEN domain IN ('orange.fr', 'wanadoo.fr') THEN 'orange'
          WHEN domain IN ('free.fr') THEN 'free'
          WHEN domain IN ('libero.it') THEN 'libero'
          WHEN domain IN ('comcast.net', 'xfinity.com') THEN 'comcast'
          WHEN domain IN ('zoho.com', 'zohomail.com', 'zohomail.eu') THEN 'zoho'
          WHEN domain IN ('fastmail.com', 'fastmail.fm') THEN 'fastmail'
          WHEN domain IN ('yandex.ru', 'yandex.com', 'ya.ru') THEN 'yandex'
          WHEN domain IN ('mail.ru', 'bk.ru', 'inbox.ru', 'list.ru') THEN 'mail.ru'
          WHEN domain IN ('qq.com', 'foxmail.com') THEN 'tencent'
          WHEN domain IN ('163.com', '126.com', 'yeah.net') THEN 'netease'
          WHEN domain IN ('naver.com') THEN 'naver'
        END
      $$
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION email.mailbox_provider_of(text)');
  }
}
