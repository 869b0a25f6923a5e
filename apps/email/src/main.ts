import { runServiceProcess } from '@switchboard/platform';
import { emailService } from './email.service-process';

void runServiceProcess(emailService);
