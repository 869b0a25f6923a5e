export { workspaceObjectsService } from './workspace-objects.service-process';
export { workspaceObjectsEnv } from './config/workspace-objects.config';
