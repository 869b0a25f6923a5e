import { Module } from '@nestjs/common';
import { SmsInboundStatsService } from './sms-inbound-stats.service';
import { SmsStatsBreakdownsService } from './sms-stats-breakdowns.service';
import { SmsStatsHandler } from './sms-stats.handler';
import { SmsStatsRepository } from './sms-stats.repository';
import { SmsStatsService } from './sms-stats.service';
import { WhatsappInboundStatsService } from './whatsapp-inbound-stats.service';
import { WhatsappStatsBreakdownsService } from './whatsapp-stats-breakdowns.service';
import { WhatsappStatsHandler } from './whatsapp-stats.handler';
import { WhatsappStatsRepository } from './whatsapp-stats.repository';
import { WhatsappStatsService } from './whatsapp-stats.service';

/**
 * SMS and WhatsApp stats, answered from the rollups (ADR 18). The rollups are kept by
 * `StatsRollupsConsumer`, background work registered in `SmsWhatsappBackgroundModule`.
 */
@Module({
  controllers: [SmsStatsHandler, WhatsappStatsHandler],
  providers: [
    SmsStatsRepository,
    SmsStatsService,
    SmsStatsBreakdownsService,
    SmsInboundStatsService,
    WhatsappStatsRepository,
    WhatsappStatsService,
    WhatsappStatsBreakdownsService,
    WhatsappInboundStatsService,
  ],
})
export class StatsModule {}
