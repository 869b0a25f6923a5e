import { Module } from '@nestjs/common';
import { PublishedTemplatesModule } from './published-templates.module';
import { TemplateDrafts } from './template-drafts';
import { TemplateLanguagesService } from './template-languages.service';
import { TemplatePreviewsService } from './template-previews.service';
import { TemplateVersionsService } from './template-versions.service';
import { TemplatesHandler } from './templates.handler';
import { TemplatesRepository } from './templates.repository';
import { TemplateVersionsRepository } from './template-versions.repository';
import { TemplatesService } from './templates.service';

/**
 * Email templates' API (sends and broadcasts use `PublishedTemplatesModule`). Needs the `email`
 * data source and, for previews by contact, `TemplateContactsModule`.
 */
@Module({
  imports: [PublishedTemplatesModule],
  controllers: [TemplatesHandler],
  providers: [
    TemplatesRepository,
    TemplateVersionsRepository,
    TemplatesService,
    TemplateDrafts,
    TemplateVersionsService,
    TemplateLanguagesService,
    TemplatePreviewsService,
  ],
})
export class TemplatesModule {}
