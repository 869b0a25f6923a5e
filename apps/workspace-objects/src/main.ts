import { runServiceProcess } from '@switchboard/platform';
import { workspaceObjectsService } from './workspace-objects.service-process';

void runServiceProcess(workspaceObjectsService);
