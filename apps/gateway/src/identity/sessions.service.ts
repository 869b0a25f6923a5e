import { Inject, Injectable } from '@nestjs/common';
import { newId } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { toUserDto } from './admin.service';
import { Authenticator, SESSION_PREFIX } from '../pipeline/auth/authenticator';
import { GATEWAY_CONFIG } from '../config/gateway.config';
import type { GatewayConfig } from '../config/gateway.config';
import { hashSecret, issueSecret, parseSecret, passwordMatches } from '../pipeline/auth/secrets';
import { Session } from './identity.entities';
import { IdentityRepository } from './identity.repository';
import { CommonErrors } from '@switchboard/contracts';

/** Dashboard sign-in: a session cookie plus a CSRF token for mutating requests. */
@Injectable()
export class SessionsService {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly identity: IdentityRepository,
    private readonly authenticator: Authenticator,
  ) {}

  async signIn(email: string, password: string) {
    const user = await this.identity.findUserByEmail(email.trim().toLowerCase());
    // Hash even for an unknown email so response time does not reveal which emails exist.
    const valid = await passwordMatches(
      password,
      user?.passwordHash ??
        'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    if (!user || !valid) throw new AppError(CommonErrors.InvalidLogin);
    const token = issueSecret(SESSION_PREFIX);
    const csrfToken = issueSecret('csrf_').secret;
    const expiresAt = new Date(Date.now() + this.config.SESSION_TTL_HOURS * 3_600_000);
    await this.identity.saveSession(
      Object.assign(new Session(), {
        id: newId('ses'),
        userId: user.id,
        lookup: token.lookup,
        secretHash: token.hash,
        csrfHash: hashSecret(csrfToken),
        expiresAt,
        endedAt: null,
      }),
    );
    return {
      cookie: token.secret,
      expiresAt,
      body: { user: toUserDto(user), csrf_token: csrfToken, expires_at: expiresAt.toISOString() },
    };
  }

  async signOut(cookie: string | undefined): Promise<void> {
    const parsed = cookie ? parseSecret(SESSION_PREFIX, cookie) : undefined;
    if (!cookie || !parsed) return;
    const record = await this.identity.findLiveSession(parsed.lookup);
    if (record) await this.identity.endSession(record.id);
    this.authenticator.forgetSession(cookie);
  }
}
