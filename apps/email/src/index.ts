export { emailService } from './email.service-process';
export { emailEnv } from './config/email.config';
