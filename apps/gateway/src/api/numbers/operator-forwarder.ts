import { Inject, Injectable } from '@nestjs/common';
import { CommonErrors } from '@switchboard/contracts';
import type { ReplyOf, RequestContext, RequestOf, Subject } from '@switchboard/contracts';
import { AppError, ServiceClient } from '@switchboard/platform';
import type { FastifyRequest } from 'fastify';
import { IdentityRepository } from '../../identity/identity.repository';
import { requestContextFor } from '../../pipeline/auth/caller';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';

/**
 * Operator API calls answered by a product service. The operator acts in no workspace of its
 * own: its Idempotency-Keys share the `operator` scope (as the gateway's own operator writes do)
 * and the workspace a call concerns travels in the payload, after this checked it exists.
 */
@Injectable()
export class OperatorForwarder {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly identity: IdentityRepository,
  ) {}

  send<S extends Subject>(
    subject: S,
    payload: RequestOf<S>,
    request: FastifyRequest,
  ): Promise<ReplyOf<S>> {
    return this.services.send(subject, payload, operatorContext(request));
  }

  /** `send` for a call about one workspace: 404 E04001 when there is no such workspace. */
  async sendFor<S extends Subject>(
    workspaceId: string,
    subject: S,
    payload: RequestOf<S>,
    request: FastifyRequest,
  ): Promise<ReplyOf<S>> {
    await this.requireWorkspace(workspaceId);
    return this.send(subject, payload, request);
  }

  async requireWorkspace(workspaceId: string): Promise<void> {
    if (!(await this.identity.findWorkspace(workspaceId)))
      throw new AppError(CommonErrors.WorkspaceNotFound);
  }
}

function operatorContext(request: FastifyRequest): RequestContext {
  return { ...requestContextFor(request), workspaceId: 'operator' };
}
