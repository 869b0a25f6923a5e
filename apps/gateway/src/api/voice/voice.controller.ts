import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { VoiceSubjects } from '@switchboard/contracts';
import type { RequestContext, VoiceCall, VoiceCallReport } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { OperatorForwarder } from '../numbers/operator-forwarder';
import { ListVoiceCallsQuery, ReportVoiceCallDto } from './voice.dto';

const voice = { tag: 'Voice', auth: 'api', role: 'read' } as const;

/** The SDK's `bird.voice`: call records, answered by the sms-whatsapp service. */
@Controller('v1/voice/calls')
export class VoiceController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...voice,
    rateLimit: 'api_list',
    paginated: true,
    summary: 'List calls, latest start first (without status: ended calls only)',
    query: ListVoiceCallsQuery,
    response: { status: 200, description: 'A page of calls' },
  })
  list(@ValidQuery() query: ListVoiceCallsQuery, @CallContext() context: RequestContext) {
    return this.services.send(VoiceSubjects.ListCalls, { ...query }, context);
  }

  @Get(':call_id')
  @Route({
    ...voice,
    rateLimit: 'read',
    summary: 'Get a call at any point of its lifecycle',
    response: { status: 200, description: 'The call' },
  })
  get(@Param('call_id') callId: string, @CallContext() context: RequestContext) {
    return this.services.send(VoiceSubjects.GetCall, { call_id: callId }, context);
  }
}

/** The SIP platform's reports of calls (operator API, contract section 9). */
@Controller('admin/v1/workspaces/:workspace_id/voice/calls')
export class VoiceAdminController {
  constructor(private readonly operator: OperatorForwarder) {}

  @Post()
  @HttpCode(201)
  @Route({
    tag: 'Operator',
    auth: 'operator',
    rateLimit: 'admin',
    summary: "Report a call leg's progress: 201 for its first report, 200 for a later one",
    body: ReportVoiceCallDto,
    response: { status: 201, description: 'The call as recorded' },
  })
  async report(
    @Param('workspace_id') workspaceId: string,
    @ValidBody() body: ReportVoiceCallDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VoiceCall> {
    const payload = { workspace_id: workspaceId, call: { ...body } as VoiceCallReport };
    const result = await this.operator.sendFor(
      workspaceId,
      VoiceSubjects.ReportCall,
      payload,
      request,
    );
    if (!result.created) void reply.status(200);
    return result.call;
  }
}
