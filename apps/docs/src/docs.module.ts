import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseReadiness, serviceTypeOrmOptions } from '@switchboard/persistence';
import { ServiceHealthModule } from '@switchboard/platform';
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
        TypeOrmModule.forRoot(serviceTypeOrmOptions(docsDatabase(config))),
        ServiceHealthModule.forService('docs', databaseReadiness('docs')),
        SearchModule.register(config.DOCS_DIR),
      ],
    };
  }
}
