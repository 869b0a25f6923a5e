import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Role } from '@switchboard/contracts';
import { paginate } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { EntityManager } from 'typeorm';
import { AccessKey, ApiKey, Organization, Session, User, Workspace } from './identity.entities';

export interface ApiKeyRecord {
  id: string;
  role: Role;
  secretHash: Buffer;
  workspaceId: string;
  organizationId: string;
  region: string;
}

export interface SessionRecord {
  id: string;
  secretHash: Buffer;
  csrfHash: Buffer;
  userId: string;
  role: Role;
  workspaceId: string;
  organizationId: string;
  region: string;
}

/** An API key or access key as operators may see it: never its lookup or secret hash. */
export interface KeyRow {
  id: string;
  workspace_id: string;
  role?: Role;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

/** A dashboard user as operators may see it: never the password hash. */
export interface UserRow {
  id: string;
  workspace_id: string;
  email: string;
  role: Role;
  created_at: Date | string;
}

export interface WorkspaceRow {
  id: string;
  name: string;
  organization_id: string;
  region: string;
  created_at: Date | string;
}

/** Named queries over the gateway's identity tables. */
@Injectable()
export class IdentityRepository {
  constructor(@InjectDataSource('gateway') private readonly dataSource: DataSource) {}

  /** Every workspace, for operators: keyset pages by creation time or name. */
  listWorkspaces(query: PageRequest, cursors: CursorCodec): Promise<Page<WorkspaceRow>> {
    return paginate<WorkspaceRow>(
      this.dataSource,
      {
        from: 'gateway.workspaces',
        select: 'id, name, organization_id, region, created_at',
        where: { sql: 'true', params: [] },
        filters: {},
        sorts: {
          created_at: { column: 'created_at', type: 'timestamptz' },
          name: { column: 'name', type: 'text' },
        },
        defaultSort: 'created_at',
        defaultOrder: query.sort === 'name' ? 'asc' : 'desc',
        idColumn: 'id',
      },
      query,
      cursors,
    );
  }

  /** A workspace's API keys or access keys, revoked ones included, newest first. */
  listKeys(
    table: 'api_keys' | 'access_keys',
    workspaceId: string,
    query: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<KeyRow>> {
    return paginate<KeyRow>(
      this.dataSource,
      {
        from: `gateway.${table}`,
        select: `id, workspace_id, ${table === 'api_keys' ? 'role, ' : ''}created_at, revoked_at`,
        where: { sql: 'workspace_id = $1', params: [workspaceId] },
        filters: { workspace_id: workspaceId },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      query,
      cursors,
    );
  }

  /** A workspace's dashboard users: keyset pages by creation time (newest first) or email. */
  listUsers(workspaceId: string, query: PageRequest, cursors: CursorCodec): Promise<Page<UserRow>> {
    return paginate<UserRow>(
      this.dataSource,
      {
        from: 'gateway.users',
        select: 'id, workspace_id, email, role, created_at',
        where: { sql: 'workspace_id = $1', params: [workspaceId] },
        filters: { workspace_id: workspaceId },
        sorts: {
          created_at: { column: 'created_at', type: 'timestamptz' },
          email: { column: 'email', type: 'text' },
        },
        defaultSort: 'created_at',
        defaultOrder: query.sort === 'email' ? 'asc' : 'desc',
        idColumn: 'id',
      },
      query,
      cursors,
    );
  }

  async findActiveApiKey(lookup: string): Promise<ApiKeyRecord | undefined> {
    return this.findActiveKey('api_keys', 'k.role', lookup);
  }

  /** Access keys act with the admin role inside their workspace. */
  async findActiveAccessKey(lookup: string): Promise<ApiKeyRecord | undefined> {
    return this.findActiveKey('access_keys', "'admin'", lookup);
  }

  private async findActiveKey(
    table: 'api_keys' | 'access_keys',
    role: string,
    lookup: string,
  ): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.dataSource.query<Array<Record<string, unknown>>>(
      `SELECT k.id, ${role} AS role, k.secret_hash, w.id AS workspace_id, w.organization_id, w.region
         FROM gateway.${table} k JOIN gateway.workspaces w ON w.id = k.workspace_id
        WHERE k.lookup = $1 AND k.revoked_at IS NULL`,
      [lookup],
    );
    if (!row) return undefined;
    return {
      id: row.id as string,
      role: row.role as Role,
      secretHash: row.secret_hash as Buffer,
      workspaceId: row.workspace_id as string,
      organizationId: row.organization_id as string,
      region: row.region as string,
    };
  }

  async findLiveSession(lookup: string): Promise<SessionRecord | undefined> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT s.id, s.secret_hash, s.csrf_hash, u.id AS user_id, u.role, w.id AS workspace_id, w.organization_id, w.region
         FROM gateway.sessions s
         JOIN gateway.users u ON u.id = s.user_id
         JOIN gateway.workspaces w ON w.id = u.workspace_id
        WHERE s.lookup = $1 AND s.ended_at IS NULL AND s.expires_at > now()`,
      [lookup],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row.id as string,
      secretHash: row.secret_hash as Buffer,
      csrfHash: row.csrf_hash as Buffer,
      userId: row.user_id as string,
      role: row.role as Role,
      workspaceId: row.workspace_id as string,
      organizationId: row.organization_id as string,
      region: row.region as string,
    };
  }

  findWorkspace(id: string): Promise<Workspace | null> {
    return this.dataSource.getRepository(Workspace).findOneBy({ id });
  }

  /** The lowercased emails of a workspace's users (who onboarding-domain mail may reach). */
  async listWorkspaceUserEmails(workspaceId: string): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ email: string }>>(
      'SELECT DISTINCT lower(email) AS email FROM gateway.users WHERE workspace_id = $1',
      [workspaceId],
    );
    return rows.map((row) => row.email);
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ email });
  }

  async endSession(id: string): Promise<void> {
    await this.dataSource.getRepository(Session).update({ id }, { endedAt: new Date() });
  }

  saveSession(session: Session): Promise<Session> {
    return this.dataSource.getRepository(Session).save(session);
  }

  async insertWorkspaceWithKeys(
    manager: EntityManager,
    records: {
      organization: Organization;
      workspace: Workspace;
      apiKey: ApiKey;
      accessKey: AccessKey;
    },
  ): Promise<void> {
    await manager.insert(Organization, records.organization);
    await manager.insert(Workspace, records.workspace);
    await manager.insert(ApiKey, records.apiKey);
    await manager.insert(AccessKey, records.accessKey);
  }

  async insertApiKey(manager: EntityManager, apiKey: ApiKey): Promise<void> {
    await manager.insert(ApiKey, apiKey);
  }

  async insertAccessKey(manager: EntityManager, accessKey: AccessKey): Promise<void> {
    await manager.insert(AccessKey, accessKey);
  }

  async insertUser(manager: EntityManager, user: User): Promise<void> {
    await manager.insert(User, user);
  }

  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
