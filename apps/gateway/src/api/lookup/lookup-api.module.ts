import { Module } from '@nestjs/common';
import { LookupController } from './lookup.controller';

/** Lookups under `/v1/lookup`, answered by the verify-lookup-preferences service. */
@Module({ controllers: [LookupController] })
export class LookupApiModule {}
