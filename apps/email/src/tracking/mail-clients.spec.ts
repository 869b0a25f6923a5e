import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { EmailConfig } from '../config/email.config';
import { emailDatabase } from '../database/email.database';
import { mailClientOf, mailClientSql } from './mail-clients';

type Case = readonly [
  agent: string | null,
  client: string | null,
  os: string | null,
  device: string | null,
];

const CASES: readonly Case[] = [
  [
    'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    'Gmail',
    null,
    null,
  ],
  [
    'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
    'Yahoo Mail',
    null,
    null,
  ],
  ['Mozilla/5.0', 'Apple Mail', null, null],
  ['  Mozilla/5.0\t', 'Apple Mail', null, null],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    'Apple Mail',
    'iOS',
    'mobile',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    'Apple Mail',
    'iOS',
    'tablet',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
    'Apple Mail',
    'macOS',
    'desktop',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
    null,
    'macOS',
    'desktop',
  ],
  [
    'Microsoft Outlook 16.0.17029; Microsoft Outlook 16.0; ms-office; MSOffice 16',
    'Outlook',
    'Windows',
    'desktop',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36',
    null,
    'Windows',
    'desktop',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.6045.163 Mobile Safari/537.36',
    null,
    'Android',
    'mobile',
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Safari/537.36',
    null,
    'Android',
    'tablet',
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungEmail/6.1.90.16 Chrome/117.0 Mobile Safari/537.36',
    'Samsung Email',
    'Android',
    'mobile',
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Thunderbird/115.5.0',
    'Thunderbird',
    'Linux',
    'desktop',
  ],
  [
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Safari/537.36',
    null,
    'ChromeOS',
    'desktop',
  ],
  [
    'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; Tablet PC 2.0; Microsoft Outlook 16.0)',
    'Outlook',
    'Windows',
    'desktop',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X)\nAppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    'Apple Mail',
    'iOS',
    'mobile',
  ],
  ['curl/8.4.0', null, null, null],
  ["it's O'Reilly", null, null, null],
  ['', null, null, null],
  [null, null, null, null],
];

describe('mailClientOf', () => {
  it.each(CASES)('reads %j as %s on %s, %s', (agent, client, os, device) => {
    expect(mailClientOf(agent)).toEqual({ email_client: client, os, device_type: device });
  });
});

describe('email.mail_client_of in PostgreSQL', () => {
  let database: MigratedDatabase;

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      emailDatabase({ DATABASE_URL: url, DATABASE_POOL_SIZE: 1 } as EmailConfig),
    );
  });

  afterAll(async () => {
    await database?.stop();
  });

  it('reads every agent as the service does', async () => {
    const agents = CASES.map(([agent]) => agent);
    const rows: Array<{ client: Array<string | null> }> = await database.dataSource.query(
      'SELECT email.mail_client_of(a) AS client FROM unnest($1::text[]) WITH ORDINALITY AS x (a, n) ORDER BY n',
      [agents],
    );
    expect(rows.map((row) => row.client)).toEqual(
      agents.map((agent) => Object.values(mailClientOf(agent))),
    );
  });

  it('is the function the lists render now (a change to them needs a migration)', async () => {
    const [row] = await database.dataSource.query(
      "SELECT prosrc FROM pg_proc WHERE proname = 'mail_client_of'",
    );
    const spaced = (sql: string) => sql.replace(/\s+/g, ' ').trim();
    expect(spaced(row.prosrc)).toBe(spaced(mailClientSql()));
  });
});
