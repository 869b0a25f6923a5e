import { runServiceProcess } from '@switchboard/platform';
import { smsWhatsappService } from './sms-whatsapp.service-process';

void runServiceProcess(smsWhatsappService);
