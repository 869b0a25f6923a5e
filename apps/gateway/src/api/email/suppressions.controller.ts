import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { EmailSubjects } from '@switchboard/contracts';
import type { EmailSuppression } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestContextFor, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { CreateSuppressionDto, ListSuppressionsQuery } from './suppressions.dto';

const suppressions = { tag: 'Email suppressions', auth: 'api' } as const;
const READ_ERRORS = [400, 401, 403, 404, 422, 429, 500] as const;
const WRITE_ERRORS = [400, 401, 403, 404, 409, 422, 429, 500, 503] as const;

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
    idempotent: false,
    paginated: true,
    query: ListSuppressionsQuery,
    response: { status: 200, description: 'A page of suppressions' },
    errors: READ_ERRORS,
  })
  list(@ValidQuery() query: ListSuppressionsQuery, @Req() request: FastifyRequest) {
    return this.services.send(
      EmailSubjects.ListSuppressions,
      { ...query },
      requestContextFor(request),
    );
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...suppressions,
    summary:
      'Suppress an address (reason manual); 200 with the existing record when it already has one',
    role: 'write',
    rateLimit: 'write',
    idempotent: true,
    paginated: false,
    body: CreateSuppressionDto,
    response: {
      status: 201,
      description: 'The new suppression (200 and the existing one if the address had one)',
    },
    errors: WRITE_ERRORS,
  })
  async create(
    @ValidBody() body: CreateSuppressionDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EmailSuppression> {
    const result = await this.services.send(
      EmailSubjects.CreateSuppression,
      { email: body.email },
      requestContextFor(request),
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
    idempotent: false,
    paginated: false,
    response: { status: 200, description: 'The suppression' },
    errors: READ_ERRORS,
  })
  get(
    @Param('suppression_id') suppressionId: string,
    @Req() request: FastifyRequest,
  ): Promise<EmailSuppression> {
    return this.services.send(
      EmailSubjects.GetSuppression,
      { suppression_id: suppressionId },
      requestContextFor(request),
    );
  }

  @Delete(':suppression_id')
  @HttpCode(204)
  @Route({
    ...suppressions,
    summary: 'Delete a suppression: mail to the address is no longer blocked for its reason',
    role: 'write',
    rateLimit: 'write',
    idempotent: true,
    paginated: false,
    response: { status: 204, description: 'Deleted' },
    errors: WRITE_ERRORS,
  })
  async remove(
    @Param('suppression_id') suppressionId: string,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.services.send(
      EmailSubjects.DeleteSuppression,
      { suppression_id: suppressionId },
      requestContextFor(request),
    );
  }
}
