import { Controller, Get } from '@nestjs/common';
import { CurrentCaller } from '../auth/caller';
import type { Caller } from '../auth/caller';
import { Route } from '../routes/route-policy';
import { WorkspaceService } from './workspace.service';
import type { WorkspaceDto } from './workspace.service';

@Controller('v1/workspace')
export class WorkspaceController {
  constructor(private readonly workspaces: WorkspaceService) {}

  @Get()
  @Route({ summary: 'Get the workspace the credentials are scoped to', tag: 'Workspaces', auth: 'api', role: 'read', rateLimit: 'read', idempotent: false, paginated: false, response: { status: 200, description: 'The workspace' }, errors: [401, 403, 404, 421, 422, 429, 500] })
  current(@CurrentCaller() caller: Caller): Promise<WorkspaceDto> {
    return this.workspaces.current(caller.workspaceId);
  }
}
