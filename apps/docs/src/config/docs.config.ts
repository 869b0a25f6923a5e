import { databaseEnv } from '@switchboard/persistence';
import { env, serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const docsEnv = {
  ...serviceEnv,
  ...databaseEnv,
  DOCS_DIR: env.string({
    default: 'docs',
    description:
      'folder of the Markdown guides and reference/openapi.json, relative to the working directory',
  }),
};
export type DocsConfig = ConfigOf<typeof docsEnv>;
