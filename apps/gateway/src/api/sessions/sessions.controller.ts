import { Controller, Delete, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieValue, SESSION_COOKIE } from '../../pipeline/auth/authenticator';
import { ValidBody } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { CreateSessionDto } from './sessions.dto';
import { SessionsService } from '../../identity/sessions.service';

/** CookieAuth: `session` cookie (HttpOnly, SameSite=Lax) and the CSRF token it pairs with. */
@Controller('auth/v1/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Post()
  @Route({
    summary: 'Sign in and receive a session cookie and a CSRF token',
    tag: 'Authentication',
    auth: 'session_login',
    rateLimit: 'auth',
    idempotent: false,
    body: CreateSessionDto,
    response: { status: 201, description: 'The user, the CSRF token and when the session expires' },
  })
  async create(
    @ValidBody() body: CreateSessionDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const session = await this.sessions.signIn(body.email, body.password);
    const secure = request.protocol === 'https' ? '; Secure' : '';
    void reply
      .status(201)
      .header(
        'set-cookie',
        `${SESSION_COOKIE}=${session.cookie}; Path=/; HttpOnly; SameSite=Lax; Expires=${session.expiresAt.toUTCString()}${secure}`,
      );
    return session.body;
  }

  @Delete()
  @HttpCode(204)
  @Route({
    summary: 'Sign out: end the session of the cookie',
    tag: 'Authentication',
    auth: 'none',
    rateLimit: 'auth',
    idempotent: false,
    response: { status: 204, description: 'Signed out' },
  })
  async remove(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.signOut(cookieValue(request.headers.cookie, SESSION_COOKIE));
    void reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`,
    );
  }
}
