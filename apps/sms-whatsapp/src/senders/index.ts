export { SmsSendersModule } from './sms-senders.module';
