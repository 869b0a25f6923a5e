import { createPublicKey, createSign, createVerify } from 'node:crypto';
import type { RequestContext } from '@switchboard/contracts';
import {
  CursorCodec,
  IdempotentWrites,
  runMigrations,
  serviceTypeOrmOptions,
} from '@switchboard/persistence';
import type { ServiceDatabase } from '@switchboard/persistence';
import type { RunningPostgres } from '@switchboard/testing';
import { loadConfig, SealedBox } from '@switchboard/platform';
import { startTestPostgres } from '@switchboard/testing';
import { DataSource } from 'typeorm';
import { emailEnv } from '../config/email.config';
import { CreateEmailSchema1763800000100 } from '../database/migrations/1763800000100-create-email-schema';
import { CreateEmailDomains1764000000100 } from '../database/migrations/1764000000100-create-email-domains';
import { DomainDnsChecker } from './domain-dns-checker';
import { parseTags } from './domain-records';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { SendingDomainsService } from './sending-domains.service';

describe(SendingDomainsService.name, () => {
  let postgres: RunningPostgres;
  let dataSource: DataSource;
  let domains: DomainsService;
  let senders: SendingDomainsService;
  const context = (workspaceId: string): RequestContext => ({
    requestId: 'req_test',
    workspaceId,
    caller: { kind: 'api_key', role: 'admin' },
  });

  beforeAll(async () => {
    postgres = await startTestPostgres();
    const config = loadConfig(emailEnv, {
      DATABASE_URL: postgres.url,
      ENCRYPTION_KEY: 'test-encryption-key-0123456789',
      EMAIL_HELO_NAME: 'mta.example.net',
    });
    const database: ServiceDatabase = {
      schema: 'email',
      url: postgres.url,
      entities: [],
      migrations: [CreateEmailSchema1763800000100, CreateEmailDomains1764000000100],
    };
    await runMigrations(database);
    dataSource = new DataSource(serviceTypeOrmOptions(database));
    await dataSource.initialize();
    const repository = new DomainsRepository(dataSource);
    const box = new SealedBox(config.ENCRYPTION_KEY);
    domains = new DomainsService(
      config,
      repository,
      new DomainDnsChecker(config),
      new IdempotentWrites(dataSource, 'email', box),
      box,
      new CursorCodec('cursor-secret', 3_600_000),
    );
    senders = new SendingDomainsService(repository, box);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await postgres?.stop();
  });

  it('answers the workspace’s domains among the names, in any case, with a key that matches the published one', async () => {
    const created = await domains.create(context('ws_a'), { domain: 'mail.acme.com' });
    await domains.create(context('ws_b'), { domain: 'mail.other.com' });
    const found = await senders.sendersFor('ws_a', [
      'MAIL.acme.com',
      'mail.acme.com',
      'mail.other.com',
      'unknown.com',
    ]);
    expect([...found.keys()]).toEqual(['mail.acme.com']);
    const sender = found.get('mail.acme.com');
    expect(sender).toEqual({
      id: created.id,
      domain: 'mail.acme.com',
      status: 'pending',
      verified: false,
      dkim: { selector: created.dkim.selector, privateKey: expect.stringContaining('PRIVATE KEY') },
      returnPath: 'send.mail.acme.com',
    });

    // What it signs with verifies against the key the DKIM record publishes.
    const dkim = created.dns_records.find((r) => r.purpose === 'dkim');
    const publicKey = createPublicKey({
      key: Buffer.from(parseTags(dkim?.value ?? '').get('p') ?? '', 'base64'),
      format: 'der',
      type: 'spki',
    });
    const signature = createSign('sha256')
      .update('headers')
      .sign(sender?.dkim.privateKey ?? '');
    expect(createVerify('sha256').update('headers').verify(publicKey, signature)).toBe(true);
  });

  it('says verified only for a verified domain, and forgets a deleted one', async () => {
    const created = await domains.create(context('ws_c'), { domain: 'news.acme.com' });
    await dataSource.query("UPDATE email.domains SET status = 'verified' WHERE id = $1", [
      created.id,
    ]);
    expect(
      (await senders.sendersFor('ws_c', ['news.acme.com'])).get('news.acme.com'),
    ).toMatchObject({ status: 'verified', verified: true });
    await domains.remove(context('ws_c'), created.id);
    expect((await senders.sendersFor('ws_c', ['news.acme.com'])).size).toBe(0);
    expect((await senders.sendersFor('ws_c', [])).size).toBe(0);
  });
});
