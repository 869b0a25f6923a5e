import type { ServiceDatabase } from '@switchboard/persistence';
import type { DocsConfig } from '../config/docs.config';
import { CreateDocsIndex1763800000700 } from './migrations/1763800000700-create-docs-index';

export function docsDatabase(config: DocsConfig): ServiceDatabase {
  return {
    schema: 'docs',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [CreateDocsIndex1763800000700],
  };
}
