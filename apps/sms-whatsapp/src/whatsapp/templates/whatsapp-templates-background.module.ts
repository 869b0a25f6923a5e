import { Module } from '@nestjs/common';
import { WhatsAppGraphModule } from '../graph/whatsapp-graph.module';
import { TemplateSyncRepository } from './template-sync.repository';
import { TemplateSyncRunner } from './template-sync.runner';
import { TemplateSyncScheduler } from './template-sync.scheduler';

/**
 * Template syncs, the background side: the work-queue runner that reads Meta (`WHATSAPP_GRAPH`)
 * and writes the templates, and the periodic scheduler.
 */
@Module({
  imports: [WhatsAppGraphModule],
  providers: [TemplateSyncRepository, TemplateSyncRunner, TemplateSyncScheduler],
})
export class WhatsAppTemplatesBackgroundModule {}
