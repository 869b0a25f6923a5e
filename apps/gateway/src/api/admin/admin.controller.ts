import { Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { IdempotencyScope } from '@switchboard/persistence';
import type { FastifyRequest } from 'fastify';
import { Route } from '../../pipeline/routes/route-policy';
import { ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { ListKeysQuery, ListUsersQuery, ListWorkspacesQuery } from './admin-list.dto';
import { CreateApiKeyDto, CreateUserDto, CreateWorkspaceDto } from './admin.dto';
import { AdminService } from '../../identity/admin.service';

const operatorList = {
  tag: 'Operator',
  auth: 'operator',
  rateLimit: 'admin',
  paginated: true,
} as const;

const operator = {
  tag: 'Operator',
  auth: 'operator',
  rateLimit: 'admin',
  idempotent: true,
} as const;

/** The operator API (contract section 3), authenticated with PLATFORM_ADMIN_TOKEN. */
@Controller('admin/v1/workspaces')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post()
  @HttpCode(201)
  @Route({
    ...operator,
    summary: 'Create a workspace with its organization, an admin API key and an access key',
    body: CreateWorkspaceDto,
    response: { status: 201, description: 'The workspace and its one-time secrets' },
  })
  create(@ValidBody() body: CreateWorkspaceDto, @Req() request: FastifyRequest) {
    return this.admin.createWorkspace(body, operatorScope(request));
  }

  @Get()
  @Route({
    ...operatorList,
    query: ListWorkspacesQuery,
    summary: 'List workspaces, newest first, with cursor pagination',
    response: { status: 200, description: 'A page of workspaces' },
  })
  list(@ValidQuery() query: ListWorkspacesQuery) {
    return this.admin.listWorkspaces(query);
  }

  @Post(':workspace_id/api-keys')
  @HttpCode(201)
  @Route({
    ...operator,
    summary: 'Create an API key for a workspace',
    body: CreateApiKeyDto,
    response: { status: 201, description: 'The key with its one-time secret' },
  })
  createApiKey(
    @Param('workspace_id') workspaceId: string,
    @ValidBody() body: CreateApiKeyDto,
    @Req() request: FastifyRequest,
  ) {
    return this.admin.createApiKey(workspaceId, body.role, operatorScope(request));
  }

  @Get(':workspace_id/api-keys')
  @Route({
    ...operatorList,
    query: ListKeysQuery,
    summary: "List a workspace's API keys (id, role, created_at, revoked_at; never the secret)",
    response: { status: 200, description: 'A page of API keys, newest first' },
  })
  listApiKeys(@Param('workspace_id') workspaceId: string, @ValidQuery() query: ListKeysQuery) {
    return this.admin.listKeys('api_keys', workspaceId, query);
  }

  @Post(':workspace_id/access-keys')
  @HttpCode(201)
  @Route({
    ...operator,
    summary: 'Create an access key for the workspace API',
    response: { status: 201, description: 'The access key with its one-time secret' },
  })
  createAccessKey(@Param('workspace_id') workspaceId: string, @Req() request: FastifyRequest) {
    return this.admin.createAccessKey(workspaceId, operatorScope(request));
  }

  @Get(':workspace_id/access-keys')
  @Route({
    ...operatorList,
    query: ListKeysQuery,
    summary: "List a workspace's access keys (id, created_at, revoked_at; never the secret)",
    response: { status: 200, description: 'A page of access keys, newest first' },
  })
  listAccessKeys(@Param('workspace_id') workspaceId: string, @ValidQuery() query: ListKeysQuery) {
    return this.admin.listKeys('access_keys', workspaceId, query);
  }

  @Get(':workspace_id/users')
  @Route({
    ...operatorList,
    query: ListUsersQuery,
    summary: "List a workspace's dashboard users (never the password or its hash)",
    response: { status: 200, description: 'A page of users, newest first' },
  })
  listUsers(@Param('workspace_id') workspaceId: string, @ValidQuery() query: ListUsersQuery) {
    return this.admin.listUsers(workspaceId, query);
  }

  @Post(':workspace_id/users')
  @HttpCode(201)
  @Route({
    ...operator,
    summary: 'Create a dashboard user who signs in with CookieAuth',
    body: CreateUserDto,
    response: { status: 201, description: 'The user' },
  })
  createUser(
    @Param('workspace_id') workspaceId: string,
    @ValidBody() body: CreateUserDto,
    @Req() request: FastifyRequest,
  ) {
    return this.admin.createUser(workspaceId, body, operatorScope(request));
  }
}

/** Operator writes share one idempotency scope; the key was validated by the idempotency gate. */
function operatorScope(request: FastifyRequest): IdempotencyScope {
  const key = request.headers['idempotency-key'];
  return {
    workspaceId: 'operator',
    key: typeof key === 'string' ? key : undefined,
    fingerprint: request.idempotencyFingerprint,
  };
}
