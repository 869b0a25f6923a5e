export { docsService } from './docs.service-process';
export { docsEnv } from './config/docs.config';
