import { Module } from '@nestjs/common';
import { SessionsController } from './sessions.controller';
/** Dashboard sessions (CookieAuth): log in and out. */
@Module({ controllers: [SessionsController] })
export class SessionsApiModule {}
