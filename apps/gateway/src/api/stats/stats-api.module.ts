import { Module } from '@nestjs/common';
import { EmailStatsController } from './email-stats.controller';
import { SmsStatsController } from './sms-stats.controller';
import { WhatsAppStatsController } from './whatsapp-stats.controller';

/** Stats of the channels, answered by the service that owns each channel (ADR 18). */
@Module({
  controllers: [EmailStatsController, SmsStatsController, WhatsAppStatsController],
})
export class StatsApiModule {}
