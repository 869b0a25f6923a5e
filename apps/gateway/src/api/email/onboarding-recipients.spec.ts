import type { MigratedDatabase } from '@switchboard/testing';
import { CursorCodec, IdempotentWrites } from '@switchboard/persistence';
import { SealedBox } from '@switchboard/platform';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { GatewayConfig } from '../../config/gateway.config';
import { gatewayDatabase } from '../../database/gateway.database';
import { AdminService } from '../../identity/admin.service';
import { IdentityRepository } from '../../identity/identity.repository';
import { OnboardingRecipients, USER_EMAILS_TTL_MS } from './onboarding-recipients';

/** A send body as the API takes it (the email service applies its rules later). */
const send = (from: unknown) => ({ from, to: ['someone@example.com'], subject: 'Hi', text: 'Hi' });

describe(OnboardingRecipients.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;
  let identity: IdentityRepository;
  let admin: AdminService;
  let config: GatewayConfig;
  let scope = 0;
  const operator = () => ({ workspaceId: 'operator', key: `k${scope++}` });

  beforeAll(async () => {
    database = await startMigratedDatabase((url) => {
      config = {
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
        REGIONS: ['us1', 'eu1'],
        PLATFORM_ADMIN_TOKEN: 'operator-token-for-tests',
        ENCRYPTION_KEY: 'an encryption key for tests',
        EMAIL_ONBOARDING_DOMAIN: 'Onboarding.Localhost',
      } as GatewayConfig;
      return gatewayDatabase(config);
    });
    dataSource = database.dataSource;
    identity = new IdentityRepository(dataSource);
    admin = new AdminService(
      config,
      identity,
      new IdempotentWrites(dataSource, 'gateway', new SealedBox(config.ENCRYPTION_KEY)),
      new CursorCodec('cursor-secret', 3_600_000),
    );
  });

  afterAll(async () => {
    await database?.stop();
  });

  async function workspaceWithUsers(...emails: string[]): Promise<string> {
    const created = await admin.createWorkspace({ name: 'Users' }, operator());
    for (const email of emails)
      await admin.createUser(
        created.workspace.id,
        { email, password: 'a long password', role: 'write' },
        operator(),
      );
    return created.workspace.id;
  }

  it("lists a workspace's user emails, lowercased, and no other workspace's", async () => {
    const mine = await workspaceWithUsers('Ada@Example.com', 'bob@example.com');
    await workspaceWithUsers('eve@example.com');
    expect((await identity.listWorkspaceUserEmails(mine)).sort()).toEqual([
      'ada@example.com',
      'bob@example.com',
    ]);
    expect(await identity.listWorkspaceUserEmails('ws_00000000000000000000000000')).toEqual([]);
  });

  it('attaches the emails to a send or batch whose sender may be on the onboarding domain', async () => {
    const workspaceId = await workspaceWithUsers('cy@example.com');
    const recipients = new OnboardingRecipients(config, identity);
    for (const from of [
      'hello@onboarding.localhost',
      'Acme <Hello@Onboarding.Localhost>',
      { email: ' hello@ONBOARDING.localhost', name: 'Acme' },
    ])
      expect(await recipients.attach(workspaceId, send(from))).toEqual({
        body: send(from),
        workspace_user_emails: ['cy@example.com'],
      });
    const batch = { messages: [send('hello@acme.com'), send('hi@onboarding.localhost')] };
    expect((await recipients.attach(workspaceId, batch)).workspace_user_emails).toEqual([
      'cy@example.com',
    ]);
    for (const body of [
      send('hello@acme.com'),
      send('x@sub.onboarding.localhost'),
      { messages: [send('hello@acme.com')] },
      'not an object',
    ])
      expect(await recipients.attach(workspaceId, body)).toEqual({ body });
  });

  it('reuses one lookup per workspace for a few seconds, then reads again', async () => {
    const workspaceId = await workspaceWithUsers('dan@example.com');
    const recipients = new OnboardingRecipients(config, identity);
    const lookups = jest.spyOn(identity, 'listWorkspaceUserEmails');
    const sends = Array.from({ length: 5 }, () =>
      recipients.attach(workspaceId, send('a@onboarding.localhost')),
    );
    await Promise.all(sends);
    expect(lookups).toHaveBeenCalledTimes(1);
    await admin.createUser(
      workspaceId,
      { email: 'new@example.com', password: 'a long password', role: 'read' },
      operator(),
    );
    const cached = await recipients.attach(workspaceId, send('a@onboarding.localhost'));
    expect(cached.workspace_user_emails).toEqual(['dan@example.com']);
    await new Promise((resolve) => setTimeout(resolve, USER_EMAILS_TTL_MS + 50));
    const fresh = await recipients.attach(workspaceId, send('a@onboarding.localhost'));
    expect(fresh.workspace_user_emails?.sort()).toEqual(['dan@example.com', 'new@example.com']);
    expect(lookups).toHaveBeenCalledTimes(2);
    lookups.mockRestore();
  });

  it('forgets a failed lookup, so the next send asks again', async () => {
    const workspaceId = await workspaceWithUsers('fay@example.com');
    const recipients = new OnboardingRecipients(config, identity);
    const lookups = jest
      .spyOn(identity, 'listWorkspaceUserEmails')
      .mockRejectedValueOnce(new Error('connection lost'));
    await expect(recipients.attach(workspaceId, send('a@onboarding.localhost'))).rejects.toThrow(
      'connection lost',
    );
    const retried = await recipients.attach(workspaceId, send('a@onboarding.localhost'));
    expect(retried.workspace_user_emails).toEqual(['fay@example.com']);
    expect(lookups).toHaveBeenCalledTimes(2);
    lookups.mockRestore();
  });
});
