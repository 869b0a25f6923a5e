import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { EmailConfig } from '../config/email.config';
import { emailDatabase } from '../database/email.database';
import { mailboxProviderOf, mailboxProviderSql } from './mailbox-providers';

const CASES: ReadonlyArray<readonly [string, string | null]> = [
  ['a@gmail.com', 'gmail'],
  ['B@GoogleMail.COM', 'gmail'],
  ['c@hotmail.co.uk', 'microsoft'],
  ['d@outlook.com', 'microsoft'],
  ['e@live.nl', 'microsoft'],
  ['f@msn.com.br', 'microsoft'],
  ['g@yahoo.fr', 'yahoo'],
  ['h@aol.com', 'yahoo'],
  ['i@icloud.com', 'apple'],
  ['j@proton.me', 'proton'],
  ['k@web.de', 'gmx'],
  ['l@qq.com', 'tencent'],
  // Not a provider's consumer domain, whatever it starts or ends with.
  ['m@live.example.com', null],
  ['n@outlook.acme.co.uk', null],
  ['o@mygmail.com', null],
  ['p@gmail.com.evil.example', null],
  ['q@acme.com', null],
  ["r@o'brien.ie", null],
];

describe('mailboxProviderOf', () => {
  it.each(CASES)('classifies %s as %s', (address, provider) => {
    expect(mailboxProviderOf(address)).toBe(provider);
  });
});

describe('email.mailbox_provider_of in PostgreSQL', () => {
  let database: MigratedDatabase;

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      emailDatabase({ DATABASE_URL: url, DATABASE_POOL_SIZE: 1 } as EmailConfig),
    );
  });

  afterAll(async () => {
    await database?.stop();
  });

  it('classifies every domain as the events do', async () => {
    const domains = CASES.map(([address]) => address.slice(address.lastIndexOf('@') + 1));
    const rows: Array<{ domain: string; provider: string | null }> =
      await database.dataSource.query(
        'SELECT d AS domain, email.mailbox_provider_of(d) AS provider FROM unnest($1::text[]) d',
        [domains],
      );
    expect(rows.map((row) => [row.domain, row.provider])).toEqual(
      domains.map((domain) => [domain, mailboxProviderOf(domain)]),
    );
  });

  it('is the function the lists render now (a change to them needs a migration)', async () => {
    const [row] = await database.dataSource.query(
      "SELECT prosrc FROM pg_proc WHERE proname = 'mailbox_provider_of'",
    );
    const spaced = (sql: string) => sql.replace(/\s+/g, ' ').trim();
    expect(spaced(row.prosrc)).toBe(spaced(mailboxProviderSql()));
  });
});
