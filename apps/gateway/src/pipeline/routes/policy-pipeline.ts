import { Injectable } from '@nestjs/common';
import { CommonErrors } from '@switchboard/contracts';
import type { Role } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Authenticator } from '../auth/authenticator';
import type { Caller } from '../auth/caller';
import { ANONYMOUS } from '../auth/caller';
import { secretMatches } from '../auth/secrets';
import { rejectQuery, validateInto } from '../http/validation';
import { routeUrlOf } from '../http/route-url';
import { IdempotencyGate } from '../idempotency/idempotency-gate';
import { RateLimitEnforcer } from '../rate-limits/rate-limit.providers';
import type { RateLimitDecision } from '../rate-limits/rate-limit.providers';
import type { RoutePolicy } from './route-policy';
import { findUnstorableText, isStorableText } from '../http/storable-text';
import { PATH_PARAMETERS } from './path-parameters';
import { RoutePolicies } from './route-policies';

const ROLE_RANK: Record<Role, number> = { read: 0, write: 1, admin: 2 };
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Applies each route's declared policy as Fastify hooks, before Nest runs the controller, in the
 * order the spec's statuses imply: authenticate (401, 421), rate limit (429), authorise (403),
 * validate the query and body (422), then idempotency (409 or a replay). Hooks instead of a Nest
 * guard and interceptor because they cost a fraction per request (see bench/RESULTS.md).
 */
@Injectable()
export class PolicyPipeline {
  constructor(
    private readonly policies: RoutePolicies,
    private readonly authenticator: Authenticator,
    private readonly rateLimits: RateLimitEnforcer,
    private readonly idempotency: IdempotencyGate,
  ) {}

  policyOf(request: FastifyRequest): RoutePolicy | undefined {
    return this.policies.find(request.method, routeUrlOf(request));
  }

  /**
   * Runs the route's policy. Answers true when the pipeline answered the request itself (an
   * idempotent replay). Synchronous whenever nothing has to be fetched (cached credential, leased
   * quota): most requests never allocate a promise here.
   */
  preHandler(request: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean> {
    // No route matched: the not-found handler answers 404 or 405, and serves nothing.
    if (request.is404) return false;
    const policy = this.policyOf(request);
    // Boot refuses undeclared routes; should one slip through, it is refused, never served.
    if (!policy) throw new AppError(CommonErrors.RouteNotFound);
    const authenticated = this.authenticate(policy, request);
    if (authenticated instanceof Promise)
      return authenticated.then((caller) =>
        this.afterAuthentication(policy, request, reply, caller),
      );
    return this.afterAuthentication(policy, request, reply, authenticated);
  }

  private afterAuthentication(
    policy: RoutePolicy,
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Caller,
  ): boolean | Promise<boolean> {
    request.caller = caller;
    // The client address is read only for anonymous routes (behind proxies it costs a header
    // parse), and without a getter object per request, which measured ~20 µs per request.
    const limit = this.rateLimits.check(policy.rateLimit, {
      organizationId: caller.organizationId,
      clientIp: caller.organizationId ? '' : request.ip,
    });
    if (limit instanceof Promise)
      return limit.then((decided) => this.afterRateLimit(policy, request, reply, decided));
    return this.afterRateLimit(policy, request, reply, limit);
  }

  private afterRateLimit(
    policy: RoutePolicy,
    request: FastifyRequest,
    reply: FastifyReply,
    limit: RateLimitDecision | undefined,
  ): boolean | Promise<boolean> {
    if (limit) {
      void reply.headers(limit.headers);
      if (!limit.allowed) throw new AppError(CommonErrors.RateLimited, { headers: limit.headers });
    }
    this.authorise(policy, request, request.caller ?? ANONYMOUS);
    checkPathParameters(request.params as Record<string, string> | undefined);
    const query = (request.query ?? {}) as Record<string, unknown>;
    if (!policy.ignoresQuery) checkStorable(query);
    if (request.bodyHasEscapes) checkStorable(request.body);
    if (policy.query) request.validatedQuery = validateInto(policy.query, query, 'query');
    else if (!policy.ignoresQuery) rejectQuery(query);
    if (policy.body) request.validatedBody = validateInto(policy.body, request.body ?? {}, 'body');
    else if (request.body !== undefined && !isEmptyObject(request.body)) {
      throw AppError.validation([
        { param: 'body', message: 'this operation takes no request body' },
      ]);
    }
    return policy.idempotent ? this.idempotency.enter(request, reply) : false;
  }

  async onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    await this.idempotency.leave(request, reply, payload);
    return payload;
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
      throw new AppError(CommonErrors.InsufficientRole, {
        message: 'Read-only credentials may call GET operations only.',
      });
    }
    if (policy.role && ROLE_RANK[role] < ROLE_RANK[policy.role]) {
      throw new AppError(CommonErrors.InsufficientRole, {
        message: `This operation needs a credential with the ${policy.role} role.`,
      });
    }
    const selected = request.headers['x-workspace-id'];
    if (typeof selected === 'string' && selected !== '' && selected !== caller.workspaceId) {
      throw new AppError(CommonErrors.WorkspaceMismatch);
    }
    if (caller.kind === 'session' && !SAFE_METHODS.has(request.method)) {
      const token = request.headers['x-csrf-token'];
      if (typeof token !== 'string' || !caller.csrfHash || !secretMatches(token, caller.csrfHash))
        throw new AppError(CommonErrors.CsrfTokenInvalid);
    }
  }
}

/** A path value that cannot be an identifier names nothing: its resource's 404, before any query. */
function checkPathParameters(params: Record<string, string> | undefined): void {
  if (!params) return;
  for (const name in params) {
    const rule = PATH_PARAMETERS[name];
    if (rule && !(rule.pattern.test(params[name]) && isStorableText(params[name]))) {
      throw new AppError(rule.notFound);
    }
  }
}

/** Text PostgreSQL cannot store (NUL, a lone surrogate) is a 422 naming the field. */
function checkStorable(value: unknown): void {
  const param = findUnstorableText(value);
  if (param !== undefined) {
    throw AppError.validation([
      { param, message: 'must not contain NUL characters or unpaired UTF-16 surrogates' },
    ]);
  }
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
}
