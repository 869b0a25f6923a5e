export { conversationsConnectorsService } from './conversations-connectors.service-process';
export { conversationsConnectorsEnv } from './config/conversations-connectors.config';
