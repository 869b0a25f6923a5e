import { Injectable } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Role } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { FastifyRequest } from 'fastify';
import { secretMatches } from '../credentials/secrets';
import { rejectQuery, validateInto } from '../http/validation';
import { ROUTE_POLICY } from '../routes/route-policy';
import type { RoutePolicy } from '../routes/route-policy';
import { Authenticator } from './authenticator';
import type { Caller } from './caller';
import { ANONYMOUS } from './caller';

const ROLE_RANK: Record<Role, number> = { read: 0, write: 1, admin: 2 };
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Applies a route's declared policy in the order the spec's statuses imply: authenticate (401,
 * 421), authorise (403), then validate the query and body (422).
 */
@Injectable()
export class RoutePolicyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.get<RoutePolicy | undefined>(ROUTE_POLICY, context.getHandler());
    if (!policy) throw new AppError('E09001', { message: 'Route without a policy.' });
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const caller = await this.authenticate(policy, request);
    request.caller = caller;
    this.authorise(policy, request, caller);
    const query = (request.query ?? {}) as Record<string, unknown>;
    if (policy.query) request.validatedQuery = validateInto(policy.query, query, 'query');
    else rejectQuery(query);
    if (policy.body) request.validatedBody = validateInto(policy.body, request.body ?? {}, 'body');
    else if (request.body !== undefined && !isEmptyObject(request.body)) {
      throw AppError.validation([{ param: 'body', message: 'this operation takes no request body' }]);
    }
    return true;
  }

  private authenticate(policy: RoutePolicy, request: FastifyRequest): Promise<Caller> | Caller {
    switch (policy.auth) {
      case 'none':
      case 'session_login':
        return ANONYMOUS;
      case 'operator':
        return this.authenticator.operator(request);
      case 'access_key':
        return this.authenticator.accessKey(request);
      case 'api':
        return this.authenticator.apiCaller(request);
    }
  }

  private authorise(policy: RoutePolicy, request: FastifyRequest, caller: Caller): void {
    if (caller.kind === 'anonymous' || caller.kind === 'operator') return;
    const role = caller.role ?? 'read';
    if (role === 'read' && !SAFE_METHODS.has(request.method)) {
      throw new AppError('E03001', { message: 'Read-only credentials may call GET operations only.' });
    }
    if (policy.role && ROLE_RANK[role] < ROLE_RANK[policy.role]) {
      throw new AppError('E03001', { message: `This operation needs a credential with the ${policy.role} role.` });
    }
    const selected = request.headers['x-workspace-id'];
    if (typeof selected === 'string' && selected !== '' && selected !== caller.workspaceId) {
      throw new AppError('E03002');
    }
    if (caller.kind === 'session' && !SAFE_METHODS.has(request.method)) {
      const token = request.headers['x-csrf-token'];
      if (typeof token !== 'string' || !caller.csrfHash || !secretMatches(token, caller.csrfHash)) throw new AppError('E03003');
    }
  }
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
