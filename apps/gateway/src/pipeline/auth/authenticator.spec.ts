import type { MigratedDatabase } from '@switchboard/testing';
import { CursorCodec, IdempotentWrites } from '@switchboard/persistence';
import { AppError, SealedBox } from '@switchboard/platform';
import { startMigratedDatabase } from '@switchboard/testing';
import type { FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { AdminService } from '../../identity/admin.service';
import type { GatewayConfig } from '../../config/gateway.config';
import { gatewayDatabase } from '../../database/gateway.database';
import { IdentityRepository } from '../../identity/identity.repository';
import { Authenticator } from './authenticator';
import { CredentialCache } from './credential-cache';

const request = (authorization?: string, cookie?: string) =>
  ({ headers: { authorization, cookie } }) as unknown as FastifyRequest;

describe(Authenticator.name, () => {
  let database: MigratedDatabase;
  let config: GatewayConfig;
  let dataSource: DataSource;
  let authenticator: Authenticator;
  let admin: AdminService;

  beforeAll(async () => {
    database = await startMigratedDatabase((url) => {
      config = {
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
        REGIONS: ['us1', 'eu1'],
        PLATFORM_ADMIN_TOKEN: 'operator-token-for-tests',
        ENCRYPTION_KEY: 'an encryption key for tests',
        AUTH_CACHE_TTL_MS: 30_000,
      } as GatewayConfig;
      return gatewayDatabase(config);
    });
    dataSource = database.dataSource;
    const identity = new IdentityRepository(dataSource);
    authenticator = new Authenticator(config, identity, new CredentialCache(config));
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

  it('resolves an access key to its workspace with the admin role, and refuses a wrong one', async () => {
    const created = await admin.createWorkspace({ name: 'Access' }, { workspaceId: 'operator' });
    await expect(
      Promise.resolve(authenticator.accessKey(request(`AccessKey ${created.access_key.secret}`))),
    ).resolves.toMatchObject({
      kind: 'access_key',
      id: created.access_key.id,
      role: 'admin',
      workspaceId: created.workspace.id,
      organizationId: created.organization.id,
    });
    const wrong = `${created.access_key.secret.slice(0, -1)}${created.access_key.secret.endsWith('0') ? '1' : '0'}`;
    await expect(
      Promise.resolve().then(() => authenticator.accessKey(request(`AccessKey ${wrong}`))),
    ).rejects.toMatchObject({ code: 'E02002' });
    await expect(
      Promise.resolve().then(() => authenticator.accessKey(request())),
    ).rejects.toMatchObject({ code: 'E02001' });
  });

  it('resolves an API key with its role, and answers a malformed session cookie 401', async () => {
    const created = await admin.createWorkspace(
      { name: 'Keys', region: 'eu1' },
      { workspaceId: 'operator' },
    );
    await expect(
      Promise.resolve(authenticator.apiCaller(request(`Bearer ${created.api_key.secret}`))),
    ).resolves.toMatchObject({ kind: 'api_key', role: 'admin', region: 'eu1' });
    const error = await Promise.resolve()
      .then(() => authenticator.apiCaller(request(undefined, 'session=%E0%A4%A')))
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'E02002' });
  });

  it('accepts the operator token and nothing else on operator routes', () => {
    expect(authenticator.operator(request('Bearer operator-token-for-tests'))).toEqual({
      kind: 'operator',
    });
    expect(() => authenticator.operator(request('Bearer operator-token-for-testz'))).toThrow(
      AppError,
    );
  });
});
