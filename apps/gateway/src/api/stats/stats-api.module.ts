import { Module } from '@nestjs/common';
import { SmsStatsController } from './sms-stats.controller';

/** Stats of the channels, answered by the service that owns each channel (ADR 20). */
@Module({
  controllers: [SmsStatsController],
})
export class StatsApiModule {}
