export { smsWhatsappService } from './sms-whatsapp.service-process';
export { smsWhatsappEnv } from './config/sms-whatsapp.config';
