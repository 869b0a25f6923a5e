export { realtimeService } from './realtime.service-process';
export { realtimeEnv } from './config/realtime.config';
export { ClientEndpoint } from './data-plane/client-endpoint';
export { SocketIoEndpoint } from './data-plane/socket-io-endpoint';
