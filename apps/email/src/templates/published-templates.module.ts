import { Module } from '@nestjs/common';
import { PublishedTemplates } from './published-templates';
import { PublishedTemplatesRepository } from './published-templates.repository';

/**
 * `PublishedTemplates` (pin a template's live version and render it per recipient), for the
 * areas that send by template: messages and broadcasts import this module.
 */
@Module({
  providers: [PublishedTemplatesRepository, PublishedTemplates],
  exports: [PublishedTemplates],
})
export class PublishedTemplatesModule {}
