import { runMigrations } from '@switchboard/persistence';
import type { ServiceDatabase } from '@switchboard/persistence';
import type { RunningPostgres } from '@switchboard/testing';
import { startTestPostgres } from '@switchboard/testing';
import { Client } from 'pg';
import { CreateEmailSchema1763800000100 } from './1763800000100-create-email-schema';
import { CreateEmailDomains1764000000100 } from './1764000000100-create-email-domains';
import { returnPathCnameMigration } from './1764000000400-return-path-cname';

/** A record as the first release stored it, with its last check. */
const stored = (fields: Record<string, unknown>) => ({
  type: 'TXT',
  optional: false,
  status: 'verified',
  error: null,
  safe_to_remove: null,
  check: 'match',
  state: 'active',
  ...fields,
});

describe('migration ReturnPathCname1764000000400', () => {
  let postgres: RunningPostgres;
  let db: Client;
  const database = (migrations: ServiceDatabase['migrations']): ServiceDatabase => ({
    schema: 'email',
    url: postgres.url,
    entities: [],
    migrations,
  });

  beforeAll(async () => {
    postgres = await startTestPostgres();
    db = new Client({ connectionString: postgres.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await postgres?.stop();
  });

  it('turns stored SPF TXT return paths into unchecked CNAMEs to the target, dropping deprecated ones', async () => {
    const before = [CreateEmailSchema1763800000100, CreateEmailDomains1764000000100];
    await runMigrations(database(before));
    const dkim = stored({
      name: 'sb1._domainkey.mail',
      host: 'sb1._domainkey.mail.acme.com',
      value: 'v=DKIM1; k=rsa; p=KEY',
      purpose: 'dkim',
    });
    const dmarc = stored({
      name: '_dmarc.mail',
      host: '_dmarc.mail.acme.com',
      value: 'v=DMARC1; p=none;',
      purpose: 'dmarc',
      found_at: 'mail.acme.com',
    });
    const spf = (name: string, state: string) =>
      stored({
        name: `${name}.mail`,
        host: `${name}.mail.acme.com`,
        value: 'v=spf1 a:mta.example.net ~all',
        purpose: 'return_path',
        state,
        safe_to_remove: state === 'deprecated' ? true : null,
      });
    await db.query(
      `INSERT INTO email.domains (id, workspace_id, domain, status, dkim_selector, dkim_key_size, dkim_private_key_sealed, return_path_name, records)
       VALUES ('dom_1', 'ws_1', 'mail.acme.com', 'verified', 'sb1', 2048, 'sealed', 'bounce', $1::jsonb)`,
      [JSON.stringify([dkim, spf('send', 'deprecated'), dmarc, spf('bounce', 'active')])],
    );

    const applied = await runMigrations(
      database([...before, returnPathCnameMigration(() => 'rp.switchboard.example')]),
    );
    expect(applied).toEqual(['ReturnPathCname1764000000400']);

    const { rows } = await db.query<{ status: string; records: unknown[] }>(
      "SELECT status, records FROM email.domains WHERE id = 'dom_1'",
    );
    expect(rows[0].status).toBe('verified');
    expect(rows[0].records).toEqual([
      dkim,
      dmarc,
      {
        ...spf('bounce', 'active'),
        type: 'CNAME',
        value: 'rp.switchboard.example',
        status: 'pending',
        check: null,
      },
    ]);
  });
  it('needs no target on a database without TXT return paths', async () => {
    await db.query('CREATE DATABASE fresh');
    const url = new URL(postgres.url);
    url.pathname = '/fresh';
    const applied = await runMigrations({
      ...database([
        CreateEmailSchema1763800000100,
        CreateEmailDomains1764000000100,
        returnPathCnameMigration(() => {
          throw new Error('the target was read');
        }),
      ]),
      url: url.toString(),
    });
    expect(applied).toContain('ReturnPathCname1764000000400');
  });
});
