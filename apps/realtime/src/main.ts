import { runServiceProcess } from '@switchboard/platform';
import { realtimeService } from './realtime.service-process';

void runServiceProcess(realtimeService);
