import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { SmsSuppressionSubjects } from '@switchboard/contracts';
import type { RequestContext, SmsSuppression } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { FastifyReply } from 'fastify';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { AddSmsSuppressionDto, ListSmsSuppressionsQuery } from './sms-suppressions.dto';

const suppressions = { tag: 'SMS suppressions', auth: 'api' } as const;

/** Opt-out episodes per (originator, destination), answered by the sms-whatsapp service. */
@Controller('v1/sms/suppressions')
export class SmsSuppressionsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...suppressions,
    summary: 'List the suppressions in force, most recent opt-out first',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListSmsSuppressionsQuery,
    response: { status: 200, description: 'A page of suppressions' },
  })
  list(@ValidQuery() query: ListSmsSuppressionsQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsSuppressionSubjects.List, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...suppressions,
    summary:
      'Stop one sender messaging one subscriber (reason manual); 200 with the manual one in force',
    role: 'write',
    rateLimit: 'write',
    body: AddSmsSuppressionDto,
    response: {
      status: 201,
      description: 'The new suppression (200 and the one in force if the pair had a manual one)',
    },
  })
  async add(
    @ValidBody() body: AddSmsSuppressionDto,
    @CallContext() context: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SmsSuppression> {
    const result = await this.services.send(SmsSuppressionSubjects.Add, { ...body }, context);
    if (!result.created) void reply.status(200);
    return result.suppression;
  }

  @Get(':sms_suppression_id')
  @Route({
    ...suppressions,
    summary: 'Get a suppression, ended ones included (blocking false)',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The suppression' },
  })
  get(@Param('sms_suppression_id') id: string, @CallContext() context: RequestContext) {
    return this.services.send(SmsSuppressionSubjects.Get, { suppression_id: id }, context);
  }

  @Delete(':sms_suppression_id')
  @HttpCode(204)
  @Route({
    ...suppressions,
    summary: 'End a manual suppression (keyword_stop and carrier_opted_out ones are refused)',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Ended, or already ended' },
  })
  async remove(@Param('sms_suppression_id') id: string, @CallContext() context: RequestContext) {
    await this.services.send(SmsSuppressionSubjects.Remove, { suppression_id: id }, context);
  }
}
