import { Injectable } from '@nestjs/common';
import { AppError } from '@switchboard/platform';
import type { Workspace } from './identity.entities';
import { IdentityRepository } from './identity.repository';
import type { WorkspaceDto } from '../api/workspace/workspace.dto';
import { CommonErrors } from '@switchboard/contracts';

const CACHE_TTL_MS = 5_000;

/** Reads the caller's workspace; a few seconds of caching keeps the hot read off the database. */
@Injectable()
export class WorkspaceService {
  private readonly cache = new Map<string, { dto: WorkspaceDto; expiresAt: number }>();

  constructor(private readonly identity: IdentityRepository) {}

  /** The cached workspace at once, or the promise of reading it. */
  current(workspaceId: string | undefined): WorkspaceDto | Promise<WorkspaceDto> {
    if (!workspaceId) throw new AppError(CommonErrors.WorkspaceNotFound);
    const hit = this.cache.get(workspaceId);
    if (hit && hit.expiresAt > Date.now()) return hit.dto;
    return this.load(workspaceId);
  }

  private async load(workspaceId: string): Promise<WorkspaceDto> {
    const workspace = await this.identity.findWorkspace(workspaceId);
    if (!workspace) throw new AppError(CommonErrors.WorkspaceNotFound);
    const dto = toWorkspaceDto(workspace);
    this.cache.set(workspaceId, { dto, expiresAt: Date.now() + CACHE_TTL_MS });
    return dto;
  }
}

function toWorkspaceDto(workspace: Workspace): WorkspaceDto {
  return {
    id: workspace.id,
    organization_id: workspace.organizationId,
    name: workspace.name,
    notification_emails: { operational: workspace.notificationEmails },
    logo_url: workspace.logoUrl,
    created_at: workspace.createdAt.toISOString(),
    updated_at: workspace.updatedAt.toISOString(),
  };
}
