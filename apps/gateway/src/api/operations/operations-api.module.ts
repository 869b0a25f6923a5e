import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { OpenApiController } from './openapi.controller';
/** Probes and the OpenAPI document. */
@Module({ controllers: [HealthController, OpenApiController] })
export class OperationsApiModule {}
