import { Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { IdempotencyScope } from '@switchboard/persistence';
import type { FastifyRequest } from 'fastify';
import { Route } from '../../pipeline/routes/route-policy';
import { ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { ListWorkspacesQuery } from './admin-list.dto';
import { CreateApiKeyDto, CreateUserDto, CreateWorkspaceDto } from './admin.dto';
import { AdminService } from '../../identity/admin.service';

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
    tag: 'Operator',
    auth: 'operator',
    rateLimit: 'admin',
    paginated: true,
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
