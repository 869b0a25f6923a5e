import { Module } from '@nestjs/common';
import { VerifyController } from './verify.controller';

/** Verifications under `/v1/verify`, answered by the verify-lookup-preferences service. */
@Module({ controllers: [VerifyController] })
export class VerifyApiModule {}
