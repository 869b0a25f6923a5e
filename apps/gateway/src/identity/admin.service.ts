import { Inject, Injectable } from '@nestjs/common';
import { CommonErrors } from '@switchboard/contracts';
import type { Role } from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, isUniqueViolation, newId } from '@switchboard/persistence';
import type { IdempotencyScope, Page } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { GATEWAY_CONFIG } from '../config/gateway.config';
import type { GatewayConfig } from '../config/gateway.config';
import { ACCESS_KEY_PREFIX } from '../pipeline/auth/authenticator';
import { apiKeyPrefix, hashPassword, issueSecret } from '../pipeline/auth/secrets';
import { AccessKey, ApiKey, Organization, User, Workspace } from './identity.entities';
import { IdentityRepository } from './identity.repository';
import type { KeyRow, UserRow, WorkspaceRow } from './identity.repository';
import type { CreateUserDto, CreateWorkspaceDto } from '../api/admin/admin.dto';
import type {
  ListKeysQuery,
  ListUsersQuery,
  ListWorkspacesQuery,
} from '../api/admin/admin-list.dto';

export interface IssuedApiKey {
  id: string;
  role: Role;
  secret: string;
}

/** Account administration for operators: workspaces, their credentials and dashboard users. */
@Injectable()
export class AdminService {
  /**
   * The operator API's writes are the gateway's own: `writes` claims their idempotency keys in
   * the same transaction.
   */
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly identity: IdentityRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async listWorkspaces(query: ListWorkspacesQuery): Promise<Page<OperatorWorkspaceDto>> {
    const page = await this.identity.listWorkspaces(query, this.cursors);
    return {
      ...page,
      data: page.data.map((row) => ({
        ...row,
        created_at: new Date(row.created_at).toISOString(),
      })),
    };
  }

  /** A workspace's API keys or access keys: ids, roles and dates, never a secret or its hash. */
  async listKeys(
    kind: 'api_keys' | 'access_keys',
    workspaceId: string,
    query: ListKeysQuery,
  ): Promise<Page<OperatorKeyDto>> {
    await this.workspace(workspaceId);
    const page = await this.identity.listKeys(kind, workspaceId, query, this.cursors);
    return {
      ...page,
      data: page.data.map((row) => ({
        ...row,
        created_at: new Date(row.created_at).toISOString(),
        revoked_at: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
      })),
    };
  }

  /** A workspace's dashboard users, as the create call answers them (no password hash). */
  async listUsers(workspaceId: string, query: ListUsersQuery): Promise<Page<OperatorUserDto>> {
    await this.workspace(workspaceId);
    const page = await this.identity.listUsers(workspaceId, query, this.cursors);
    return {
      ...page,
      data: page.data.map((row) => ({
        ...row,
        created_at: new Date(row.created_at).toISOString(),
      })),
    };
  }

  async createWorkspace(input: CreateWorkspaceDto, scope: IdempotencyScope) {
    const region = input.region ?? 'us1';
    if (!this.config.REGIONS.includes(region)) {
      throw AppError.validation([
        { param: 'region', message: `must be one of ${this.config.REGIONS.join(', ')}` },
      ]);
    }
    const organization = Object.assign(new Organization(), {
      id: newId('org'),
      name: input.organization_name ?? input.name,
    });
    const workspace = Object.assign(new Workspace(), {
      id: newId('ws'),
      organizationId: organization.id,
      name: input.name,
      region,
      notificationEmails: [],
      logoUrl: null,
    });
    const { record: apiKey, issued } = this.newApiKey(workspace, 'admin');
    const access = issueSecret(ACCESS_KEY_PREFIX);
    const accessKey = Object.assign(new AccessKey(), {
      id: newId('ak'),
      workspaceId: workspace.id,
      lookup: access.lookup,
      secretHash: access.hash,
      revokedAt: null,
    });
    return this.writes.runScoped(scope, async (manager) => {
      await this.identity.insertWorkspaceWithKeys(manager, {
        organization,
        workspace,
        apiKey,
        accessKey,
      });
      return {
        organization: { id: organization.id, name: organization.name },
        workspace: {
          id: workspace.id,
          name: workspace.name,
          organization_id: organization.id,
          region,
        },
        api_key: issued,
        access_key: { id: accessKey.id, secret: access.secret },
      };
    });
  }

  async createApiKey(
    workspaceId: string,
    role: Role,
    scope: IdempotencyScope,
  ): Promise<IssuedApiKey> {
    const workspace = await this.workspace(workspaceId);
    const { record, issued } = this.newApiKey(workspace, role);
    return this.writes.runScoped(scope, async (manager) => {
      await this.identity.insertApiKey(manager, record);
      return issued;
    });
  }

  async createAccessKey(
    workspaceId: string,
    scope: IdempotencyScope,
  ): Promise<{ id: string; secret: string }> {
    await this.workspace(workspaceId);
    const access = issueSecret(ACCESS_KEY_PREFIX);
    const id = newId('ak');
    return this.writes.runScoped(scope, async (manager) => {
      await this.identity.insertAccessKey(
        manager,
        Object.assign(new AccessKey(), {
          id,
          workspaceId,
          lookup: access.lookup,
          secretHash: access.hash,
          revokedAt: null,
        }),
      );
      return { id, secret: access.secret };
    });
  }

  async createUser(workspaceId: string, input: CreateUserDto, scope: IdempotencyScope) {
    await this.workspace(workspaceId);
    const email = input.email.trim().toLowerCase();
    const user = Object.assign(new User(), {
      id: newId('usr'),
      workspaceId,
      email,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      createdAt: new Date(),
    });
    return this.writes.runScoped(scope, async (manager) => {
      try {
        await this.identity.insertUser(manager, user);
      } catch (err) {
        if (isUniqueViolation(err))
          throw AppError.validation([
            { param: 'email', message: 'a user with this email already exists' },
          ]);
        throw err;
      }
      return toUserDto(user);
    });
  }

  private async workspace(id: string): Promise<Workspace> {
    const workspace = await this.identity.findWorkspace(id);
    if (!workspace) throw new AppError(CommonErrors.WorkspaceNotFound);
    return workspace;
  }

  private newApiKey(workspace: Workspace, role: Role): { record: ApiKey; issued: IssuedApiKey } {
    const secret = issueSecret(apiKeyPrefix(workspace.region));
    const record = Object.assign(new ApiKey(), {
      id: newId('key'),
      workspaceId: workspace.id,
      role,
      lookup: secret.lookup,
      secretHash: secret.hash,
      revokedAt: null,
    });
    return { record, issued: { id: record.id, role, secret: secret.secret } };
  }
}

export type OperatorWorkspaceDto = Omit<WorkspaceRow, 'created_at'> & { created_at: string };
export type OperatorKeyDto = Omit<KeyRow, 'created_at' | 'revoked_at'> & {
  created_at: string;
  revoked_at: string | null;
};
export type OperatorUserDto = Omit<UserRow, 'created_at'> & { created_at: string };

export function toUserDto(user: User) {
  return {
    id: user.id,
    workspace_id: user.workspaceId,
    email: user.email,
    role: user.role,
    created_at: (user.createdAt ?? new Date()).toISOString(),
  };
}
