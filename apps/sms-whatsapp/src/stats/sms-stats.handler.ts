import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { SmsStatsSubjects } from '@switchboard/contracts';
import type {
  SmsInboundBreakdownRequest,
  SmsInboundSeriesRequest,
  SmsInboundSummaryRequest,
  SmsStatsBreakdownRequest,
  SmsStatsSeriesRequest,
  SmsStatsSummaryRequest,
  StatsWindowRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { SmsInboundStatsService } from './sms-inbound-stats.service';
import { SmsStatsBreakdownsService } from './sms-stats-breakdowns.service';
import { SmsStatsService } from './sms-stats.service';

/** Transport handlers of SMS stats; the services apply every query rule. */
@Controller()
export class SmsStatsHandler {
  constructor(
    private readonly stats: SmsStatsService,
    private readonly breakdowns: SmsStatsBreakdownsService,
    private readonly inbound: SmsInboundStatsService,
  ) {}

  @Handles(SmsStatsSubjects.Summary)
  summary(@Payload() input: SmsStatsSummaryRequest, @Ctx() context: BaseRpcContext) {
    return this.stats.summary(requestContextOf(context), input);
  }

  @Handles(SmsStatsSubjects.Series)
  series(@Payload() input: SmsStatsSeriesRequest, @Ctx() context: BaseRpcContext) {
    return this.stats.series(requestContextOf(context), input);
  }

  @Handles(SmsStatsSubjects.Statuses)
  statuses(@Payload() input: StatsWindowRequest, @Ctx() context: BaseRpcContext) {
    return this.stats.statuses(requestContextOf(context), input);
  }

  @Handles(SmsStatsSubjects.Breakdown)
  breakdown(@Payload() input: SmsStatsBreakdownRequest, @Ctx() context: BaseRpcContext) {
    return this.breakdowns.breakdown(requestContextOf(context), input);
  }

  @Handles(SmsStatsSubjects.InboundSummary)
  inboundSummary(@Payload() input: SmsInboundSummaryRequest, @Ctx() context: BaseRpcContext) {
    return this.inbound.summary(requestContextOf(context), input);
  }

  @Handles(SmsStatsSubjects.InboundSeries)
  inboundSeries(@Payload() input: SmsInboundSeriesRequest, @Ctx() context: BaseRpcContext) {
    return this.inbound.series(requestContextOf(context), input);
  }

  @Handles(SmsStatsSubjects.InboundBreakdown)
  inboundBreakdown(@Payload() input: SmsInboundBreakdownRequest, @Ctx() context: BaseRpcContext) {
    return this.inbound.breakdown(requestContextOf(context), input);
  }
}
