import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CONTENT_LOCALE } from '../content/doc-page';
import { loadDocsContent } from '../content/docs-content';
import { DocsIndexRepository } from './docs-index.repository';

export const DOCS_DIR = Symbol('DOCS_DIR');

/** A failed build (database down at start) is retried this often until one succeeds. */
const RETRY_MS = 30_000;

/**
 * Rebuilds the search index from the content at every start, before the service takes requests,
 * so a started platform can search at once. If the build fails the service still starts and
 * answers E05004 until a retry succeeds.
 */
@Injectable()
export class DocsIndexer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DocsIndexer.name);
  private indexed = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly repository: DocsIndexRepository,
    @Inject(DOCS_DIR) private readonly docsDir: string,
  ) {}

  get ready(): boolean {
    return this.indexed;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.build();
  }

  onModuleDestroy(): void {
    clearTimeout(this.retry);
  }

  private async build(): Promise<void> {
    try {
      const pages = await loadDocsContent(this.docsDir, this.logger);
      await this.repository.replaceLocale(CONTENT_LOCALE, pages);
      this.indexed = true;
      const sections = pages.reduce((sum, page) => sum + page.sections.length, 0);
      this.logger.log(`docs: indexed ${pages.length} pages, ${sections} sections`);
    } catch (err) {
      this.logger.error({ err, msg: `docs: indexing failed; retrying in ${RETRY_MS / 1000} s` });
      this.retry = setTimeout(() => void this.build(), RETRY_MS).unref();
    }
  }
}
