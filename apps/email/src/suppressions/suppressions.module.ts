import { Module } from '@nestjs/common';
import { SuppressionsHandler } from './suppressions.handler';
import { SuppressionsRepository } from './suppressions.repository';
import { SuppressionsService } from './suppressions.service';

/**
 * The workspace suppression list. Exports `SuppressionsService` for the message pipeline;
 * needs `EMAIL_CONFIG` (global in the email service) and the `email` data source.
 */
@Module({
  controllers: [SuppressionsHandler],
  providers: [SuppressionsRepository, SuppressionsService],
  exports: [SuppressionsService],
})
export class SuppressionsModule {}
