import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { ServiceDataModule } from '@switchboard/persistence';
import type { DocsConfig } from './config/docs.config';
import { docsDatabase } from './database/docs.database';
import { SearchModule } from './search/search.module';

/** The docs service: full-text search over the guides, error pages and API reference, and page reads. */
@Module({})
export class DocsModule {
  static register(config: DocsConfig): DynamicModule {
    return {
      module: DocsModule,
      imports: [
        ServiceDataModule.forService({ database: docsDatabase(config), health: 'docs' }),
        SearchModule.register(config.DOCS_DIR),
      ],
    };
  }
}
