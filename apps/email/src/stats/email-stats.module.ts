import { Module } from '@nestjs/common';
import { EmailStatsBreakdownsService } from './email-stats-breakdowns.service';
import { EmailStatsHandler } from './email-stats.handler';
import { EmailStatsRepository } from './email-stats.repository';
import { EmailStatsService } from './email-stats.service';

/**
 * Email stats, answered from the rollups (ADR 18). The rollups are kept by
 * `EmailStatsRollupsConsumer`, background work registered in `EmailBackgroundModule`.
 */
@Module({
  controllers: [EmailStatsHandler],
  providers: [EmailStatsRepository, EmailStatsService, EmailStatsBreakdownsService],
})
export class EmailStatsModule {}
