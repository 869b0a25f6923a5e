import { Module } from '@nestjs/common';
import { PublishedTemplates } from './published-templates';
import { PublishedTemplatesRepository } from './published-templates.repository';
import { TemplatesRepository } from './templates.repository';

/**
 * Email templates. Exports `PublishedTemplates` (pin a template's live version and render it)
 * for sends by template and for broadcasts; needs the `email` data source.
 */
@Module({
  providers: [PublishedTemplatesRepository, PublishedTemplates, TemplatesRepository],
  exports: [PublishedTemplates],
})
export class TemplatesModule {}
