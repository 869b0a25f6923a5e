import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@switchboard/platform';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG } from '../../config/gateway.config';
import type { GatewayConfig } from '../../config/gateway.config';
import { hashSecret, parseSecret, regionOfApiKey, secretMatches } from './secrets';
import { IdentityRepository } from '../../identity/identity.repository';
import type { Caller } from './caller';
import { CredentialCache } from './credential-cache';
import { CommonErrors } from '@switchboard/contracts';

export const SESSION_COOKIE = 'session';
export const SESSION_PREFIX = 'sess_';
export const ACCESS_KEY_PREFIX = 'ak_';

/**
 * Turns the credential a request presents into a Caller, or fails with 401 (missing or invalid)
 * or 421 (an API key of a region this deployment does not serve). Verified credentials are
 * cached briefly so the hot path makes no database round trip.
 */
@Injectable()
export class Authenticator {
  private readonly operatorTokenHash: Buffer;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly identity: IdentityRepository,
    private readonly cache: CredentialCache,
  ) {
    this.operatorTokenHash = hashSecret(config.PLATFORM_ADMIN_TOKEN);
  }

  operator(request: FastifyRequest): Caller {
    const token = bearerToken(request);
    if (!token) throw new AppError(CommonErrors.MissingCredentials);
    const presented = hashSecret(token);
    if (!timingSafeEqual(presented, this.operatorTokenHash))
      throw new AppError(CommonErrors.InvalidCredentials);
    return { kind: 'operator' };
  }

  /** Bearer API key, or else the dashboard session cookie. */
  apiCaller(request: FastifyRequest): Caller | Promise<Caller> {
    const token = bearerToken(request);
    if (token) return this.apiKey(token);
    const session = cookieValue(request.headers.cookie, SESSION_COOKIE);
    if (session) return this.session(session);
    if (request.headers.authorization)
      throw new AppError(CommonErrors.InvalidCredentials, {
        message: 'Use Authorization: Bearer <API key>.',
      });
    throw new AppError(CommonErrors.MissingCredentials);
  }

  accessKey(request: FastifyRequest): Caller | Promise<Caller> {
    const match = /^AccessKey\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match)
      throw new AppError(
        request.headers.authorization
          ? CommonErrors.InvalidCredentials
          : CommonErrors.MissingCredentials,
      );
    const secret = match[1];
    return this.cache.remember(`access:${secret}`, async () => {
      const parsed = parseSecret(ACCESS_KEY_PREFIX, secret);
      const record = parsed && (await this.identity.findActiveAccessKey(parsed.lookup));
      if (!record || !secretMatches(secret, record.secretHash))
        throw new AppError(CommonErrors.InvalidCredentials);
      return {
        kind: 'access_key',
        id: record.id,
        role: record.role,
        workspaceId: record.workspaceId,
        organizationId: record.organizationId,
        region: record.region,
      };
    });
  }

  private apiKey(secret: string): Caller | Promise<Caller> {
    const region = regionOfApiKey(secret);
    if (!region) throw new AppError(CommonErrors.InvalidCredentials);
    if (!this.config.REGIONS.includes(region)) {
      throw new AppError(CommonErrors.MisdirectedRequest, {
        message: `This API key belongs to region ${region}, which this deployment does not serve (it serves ${this.config.REGIONS.join(', ')}). Send the request to the ${region} host.`,
      });
    }
    return this.cache.remember(`api:${secret}`, async () => {
      const parsed = parseSecret(`bk_${region}_`, secret);
      const record = parsed && (await this.identity.findActiveApiKey(parsed.lookup));
      if (!record || record.region !== region || !secretMatches(secret, record.secretHash))
        throw new AppError(CommonErrors.InvalidCredentials);
      return {
        kind: 'api_key',
        id: record.id,
        role: record.role,
        workspaceId: record.workspaceId,
        organizationId: record.organizationId,
        region,
      };
    });
  }

  private session(secret: string): Caller | Promise<Caller> {
    return this.cache.remember(`session:${secret}`, async () => {
      const parsed = parseSecret(SESSION_PREFIX, secret);
      const record = parsed && (await this.identity.findLiveSession(parsed.lookup));
      if (!record || !secretMatches(secret, record.secretHash))
        throw new AppError(CommonErrors.InvalidCredentials, {
          message: 'The session is invalid or has ended.',
        });
      return {
        kind: 'session',
        id: record.userId,
        role: record.role,
        workspaceId: record.workspaceId,
        organizationId: record.organizationId,
        region: record.region,
        csrfHash: record.csrfHash,
      };
    });
  }

  forgetSession(secret: string): void {
    this.cache.forget(`session:${secret}`);
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return value.join('='); // not percent-encoded: it fails verification as an invalid session
    }
  }
  return undefined;
}
