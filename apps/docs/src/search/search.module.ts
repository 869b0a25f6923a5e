import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { DocsIndexRepository } from './docs-index.repository';
import { DocsIndexer, DOCS_DIR } from './docs-indexer';
import { DocsHandler } from './docs.handler';
import { DocsService } from './docs.service';
import { DocsHtmlService } from '../html/docs-html.service';

@Module({})
export class SearchModule {
  static register(docsDir: string): DynamicModule {
    return {
      module: SearchModule,
      controllers: [DocsHandler],
      providers: [
        { provide: DOCS_DIR, useValue: docsDir },
        DocsIndexRepository,
        DocsIndexer,
        DocsService,
        DocsHtmlService,
      ],
    };
  }
}
