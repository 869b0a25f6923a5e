import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { EmailStatsSubjects } from '@switchboard/contracts';
import type {
  EmailStatsBreakdownRequest,
  EmailStatsSeriesRequest,
  EmailStatsSummaryRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { EmailStatsBreakdownsService } from './email-stats-breakdowns.service';
import { EmailStatsService } from './email-stats.service';

/** Transport handlers of email stats; the services apply every query rule. */
@Controller()
export class EmailStatsHandler {
  constructor(
    private readonly stats: EmailStatsService,
    private readonly breakdowns: EmailStatsBreakdownsService,
  ) {}

  @Handles(EmailStatsSubjects.Summary)
  summary(@Payload() input: EmailStatsSummaryRequest, @Ctx() context: BaseRpcContext) {
    return this.stats.summary(requestContextOf(context), input);
  }

  @Handles(EmailStatsSubjects.Series)
  series(@Payload() input: EmailStatsSeriesRequest, @Ctx() context: BaseRpcContext) {
    return this.stats.series(requestContextOf(context), input);
  }

  @Handles(EmailStatsSubjects.Breakdown)
  breakdown(@Payload() input: EmailStatsBreakdownRequest, @Ctx() context: BaseRpcContext) {
    return this.breakdowns.breakdown(requestContextOf(context), input);
  }
}
