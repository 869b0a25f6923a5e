import { runServiceProcess } from '@switchboard/platform';
import { docsService } from './docs.service-process';

void runServiceProcess(docsService);
