import { runServiceProcess } from '@switchboard/platform';
import { conversationsConnectorsService } from './conversations-connectors.service-process';

void runServiceProcess(conversationsConnectorsService);
