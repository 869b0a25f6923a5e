import { Module } from '@nestjs/common';
import { TemplateCatalog } from './template-catalog';
import { TemplateSyncRepository } from './template-sync.repository';
import { TemplateSyncService } from './template-sync.service';
import { WhatsAppTemplatesRepository } from './templates.repository';
import { WhatsAppTemplatesService } from './templates.service';
import { WhatsAppTemplatesHandler } from './whatsapp-templates.handler';

/**
 * WhatsApp templates, the request side: the SDK's read API, the workspace API's sync request,
 * the catalog a send resolves its template through (`TemplateCatalog`) and the status webhooks
 * (`TemplateSyncService.applyTemplateStatusUpdate`).
 */
@Module({
  controllers: [WhatsAppTemplatesHandler],
  providers: [
    WhatsAppTemplatesRepository,
    WhatsAppTemplatesService,
    TemplateCatalog,
    TemplateSyncRepository,
    TemplateSyncService,
  ],
  exports: [TemplateCatalog, TemplateSyncService],
})
export class WhatsAppTemplatesModule {}
