import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `email.mail_client_of(agent)`: `[email_client, os, device_type]` of an opener's user agent, for
 * the stats fold's client dimensions: the rules of `tracking/mail-clients.ts` as they were,
 * frozen here (a spec holds the migrated function to what those rules render now: a change to
 * them needs a migration that replaces it). No `FROM`: inlined into the fold.
 */
export class MailClientOf1764900001100 implements MigrationInterface {
  name = 'MailClientOf1764900001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(String.raw`
      CREATE FUNCTION email.mail_client_of(agent text) RETURNS text[]
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN btrim(coalesce(agent, ''), E' \t') = '' THEN ARRAY[NULL, NULL, NULL]::text[]
          ELSE ARRAY[CASE
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'GoogleImageProxy|ggpht\.com' THEN 'Gmail'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'YahooMailProxy' THEN 'Yahoo Mail'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* '^Mozilla/5\.0$' THEN 'Apple Mail'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Microsoft Outlook|MSOffice|ms-office|Outlook-iOS|Outlook-Android' THEN 'Outlook'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Thunderbird/' THEN 'Thunderbird'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Windows-Mail|WindowsMail' THEN 'Windows Mail'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Gmail' THEN 'Gmail'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'SamsungEmail' THEN 'Samsung Email'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* '(iPhone|iPad|iPod|Macintosh).*AppleWebKit/[0-9.]+ \(KHTML, like Gecko\)( Mobile/[0-9A-Za-z]+)?$' THEN 'Apple Mail' END, CASE
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'GoogleImageProxy|ggpht\.com|YahooMailProxy|^Mozilla/5\.0$' THEN NULL
          ELSE CASE
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'iPhone|iPad|iPod|Outlook-iOS' THEN 'iOS'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Android' THEN 'Android'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* '[(;] ?CrOS ' THEN 'ChromeOS'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Windows|ms-office|MSOffice' THEN 'Windows'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Macintosh|Mac OS X' THEN 'macOS'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Linux|X11' THEN 'Linux' END END, CASE
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'GoogleImageProxy|ggpht\.com|YahooMailProxy|^Mozilla/5\.0$' THEN NULL
          ELSE CASE
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Windows NT|ms-office|MSOffice' THEN 'desktop'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'iPad|Tablet' THEN 'tablet'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'iPhone|iPod|Mobile|Outlook-iOS|Outlook-Android' THEN 'mobile'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Android' THEN 'tablet'
          WHEN btrim(coalesce(agent, ''), E' \t') ~* 'Windows|ms-office|MSOffice|Macintosh|[(;] ?CrOS |X11|Linux' THEN 'desktop' END END] END
      $$
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION email.mail_client_of(text)');
  }
}
