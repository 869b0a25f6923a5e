export { SmsSuppressionsModule } from './sms-suppressions.module';
export { SmsSuppressionsService, SMS_SUPPRESSION_ID_PREFIX } from './sms-suppressions.service';
export { senderForm } from './sms-senders';
