import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { EmailSubjects } from '@switchboard/contracts';
import type { EmailSuppression, RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { FastifyReply } from 'fastify';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { CreateSuppressionDto, ListSuppressionsQuery } from './suppressions.dto';

const suppressions = { tag: 'Email suppressions', auth: 'api' } as const;

/** The workspace suppression list (reference section 6), answered by the email service. */
@Controller('v1/email/suppressions')
export class SuppressionsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...suppressions,
    summary: 'List suppressions, newest first (email prefix, reason and scope_type filters)',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListSuppressionsQuery,
    response: { status: 200, description: 'A page of suppressions' },
  })
  list(@ValidQuery() query: ListSuppressionsQuery, @CallContext() context: RequestContext) {
    return this.services.send(EmailSubjects.ListSuppressions, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...suppressions,
    summary:
      'Suppress an address (reason manual); 200 with the existing record when it already has one',
    role: 'write',
    rateLimit: 'write',
    body: CreateSuppressionDto,
    response: {
      status: 201,
      description: 'The new suppression (200 and the existing one if the address had one)',
    },
  })
  async create(
    @ValidBody() body: CreateSuppressionDto,
    @CallContext() context: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EmailSuppression> {
    const result = await this.services.send(
      EmailSubjects.CreateSuppression,
      { email: body.email },
      context,
    );
    if (!result.created) void reply.status(200);
    return result.suppression;
  }

  @Get(':suppression_id')
  @Route({
    ...suppressions,
    summary: 'Get a suppression',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The suppression' },
  })
  get(
    @Param('suppression_id') suppressionId: string,
    @CallContext() context: RequestContext,
  ): Promise<EmailSuppression> {
    return this.services.send(
      EmailSubjects.GetSuppression,
      { suppression_id: suppressionId },
      context,
    );
  }

  @Delete(':suppression_id')
  @HttpCode(204)
  @Route({
    ...suppressions,
    summary: 'Delete a suppression: mail to the address is no longer blocked for its reason',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Deleted' },
  })
  async remove(
    @Param('suppression_id') suppressionId: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(
      EmailSubjects.DeleteSuppression,
      { suppression_id: suppressionId },
      context,
    );
  }
}
