export { webhooksService } from './webhooks.service-process';
export { webhooksEnv } from './config/webhooks.config';
