import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Route } from '../routes/route-policy';
import { ValidBody } from '../auth/caller';
import { CreateApiKeyDto, CreateUserDto, CreateWorkspaceDto } from './admin.dto';
import { AdminService } from './admin.service';

const operator = { tag: 'Operator', auth: 'operator', rateLimit: 'admin', idempotent: true, paginated: false, errors: [400, 401, 404, 413, 422, 500] } as const;

/** The operator API (contract section 3), authenticated with PLATFORM_ADMIN_TOKEN. */
@Controller('admin/v1/workspaces')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post()
  @HttpCode(201)
  @Route({ ...operator, summary: 'Create a workspace with its organization, an admin API key and an access key', body: CreateWorkspaceDto, response: { status: 201, description: 'The workspace and its one-time secrets' } })
  create(@ValidBody() body: CreateWorkspaceDto) {
    return this.admin.createWorkspace(body);
  }

  @Post(':workspace_id/api-keys')
  @HttpCode(201)
  @Route({ ...operator, summary: 'Create an API key for a workspace', body: CreateApiKeyDto, response: { status: 201, description: 'The key with its one-time secret' } })
  createApiKey(@Param('workspace_id') workspaceId: string, @ValidBody() body: CreateApiKeyDto) {
    return this.admin.createApiKey(workspaceId, body.role);
  }

  @Post(':workspace_id/access-keys')
  @HttpCode(201)
  @Route({ ...operator, summary: 'Create an access key for the workspace API', response: { status: 201, description: 'The access key with its one-time secret' } })
  createAccessKey(@Param('workspace_id') workspaceId: string) {
    return this.admin.createAccessKey(workspaceId);
  }

  @Post(':workspace_id/users')
  @HttpCode(201)
  @Route({ ...operator, summary: 'Create a dashboard user who signs in with CookieAuth', body: CreateUserDto, response: { status: 201, description: 'The user' } })
  createUser(@Param('workspace_id') workspaceId: string, @ValidBody() body: CreateUserDto) {
    return this.admin.createUser(workspaceId, body);
  }
}
