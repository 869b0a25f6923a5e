import { runServiceProcess } from '@switchboard/platform';
import { webhooksService } from './webhooks.service-process';

void runServiceProcess(webhooksService);
