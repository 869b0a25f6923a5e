import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import type { TransportSettings } from '@switchboard/platform';
import { PreviewContactsClient } from './preview-contacts';
import { PublishedTemplatesModule } from './published-templates.module';
import { TemplateLanguagesService } from './template-languages.service';
import { TemplatePreviewsService } from './template-previews.service';
import { TemplateVersionsService } from './template-versions.service';
import { TemplatesHandler } from './templates.handler';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';

/**
 * Email templates' API (sends and broadcasts use `PublishedTemplatesModule`). Needs `EMAIL_CONFIG`, the `email` data source and,
 * for previews by contact, `transport` (how the workspace-objects service is reached).
 */
@Module({})
export class TemplatesModule {
  static register(transport?: TransportSettings): DynamicModule {
    return {
      module: TemplatesModule,
      imports: [PublishedTemplatesModule],
      controllers: [TemplatesHandler],
      providers: [
        ...(transport
          ? [
              {
                provide: PreviewContactsClient,
                useFactory: () => new PreviewContactsClient(transport, 'email-templates'),
              },
            ]
          : []),
        TemplatesRepository,
        TemplatesService,
        TemplateVersionsService,
        TemplateLanguagesService,
        TemplatePreviewsService,
      ],
    };
  }
}
