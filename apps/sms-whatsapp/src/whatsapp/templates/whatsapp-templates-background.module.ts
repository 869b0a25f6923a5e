import { Module } from '@nestjs/common';
import { TemplateSyncRepository } from './template-sync.repository';
import { TemplateSyncRunner } from './template-sync.runner';
import { TemplateSyncScheduler } from './template-sync.scheduler';

/**
 * Template syncs, the background side: the work-queue runner that reads Meta and writes the
 * templates, and the periodic scheduler. The Graph client (`WHATSAPP_GRAPH`) comes from the
 * service's Graph module, imported where this module is.
 */
@Module({
  providers: [TemplateSyncRepository, TemplateSyncRunner, TemplateSyncScheduler],
})
export class WhatsAppTemplatesBackgroundModule {}
