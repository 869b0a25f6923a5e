import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { WhatsAppStatsSubjects } from '@switchboard/contracts';
import type {
  WhatsAppInboundPhoneNumbersRequest,
  WhatsAppInboundSeriesRequest,
  WhatsAppInboundSummaryRequest,
  WhatsAppStatsBreakdownRequest,
  WhatsAppStatsSeriesRequest,
  WhatsAppStatsSummaryRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { WhatsappInboundStatsService } from './whatsapp-inbound-stats.service';
import { WhatsappStatsBreakdownsService } from './whatsapp-stats-breakdowns.service';
import { WhatsappStatsService } from './whatsapp-stats.service';

/** Transport handlers of WhatsApp stats; the services apply every query rule. */
@Controller()
export class WhatsappStatsHandler {
  constructor(
    private readonly stats: WhatsappStatsService,
    private readonly breakdowns: WhatsappStatsBreakdownsService,
    private readonly inbound: WhatsappInboundStatsService,
  ) {}

  @Handles(WhatsAppStatsSubjects.Summary)
  summary(@Payload() input: WhatsAppStatsSummaryRequest, @Ctx() context: BaseRpcContext) {
    return this.stats.summary(requestContextOf(context), input);
  }

  @Handles(WhatsAppStatsSubjects.Series)
  series(@Payload() input: WhatsAppStatsSeriesRequest, @Ctx() context: BaseRpcContext) {
    return this.stats.series(requestContextOf(context), input);
  }

  @Handles(WhatsAppStatsSubjects.Breakdown)
  breakdown(@Payload() input: WhatsAppStatsBreakdownRequest, @Ctx() context: BaseRpcContext) {
    return this.breakdowns.breakdown(requestContextOf(context), input);
  }

  @Handles(WhatsAppStatsSubjects.InboundSummary)
  inboundSummary(@Payload() input: WhatsAppInboundSummaryRequest, @Ctx() context: BaseRpcContext) {
    return this.inbound.summary(requestContextOf(context), input);
  }

  @Handles(WhatsAppStatsSubjects.InboundSeries)
  inboundSeries(@Payload() input: WhatsAppInboundSeriesRequest, @Ctx() context: BaseRpcContext) {
    return this.inbound.series(requestContextOf(context), input);
  }

  @Handles(WhatsAppStatsSubjects.InboundPhoneNumbers)
  inboundPhoneNumbers(
    @Payload() input: WhatsAppInboundPhoneNumbersRequest,
    @Ctx() context: BaseRpcContext,
  ) {
    return this.inbound.phoneNumbers(requestContextOf(context), input);
  }
}
