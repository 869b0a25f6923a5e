import { env, serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const docsEnv = {
  ...serviceEnv,
  DOCS_DIR: env.string({
    default: 'docs',
    description:
      'folder of the Markdown guides and reference/openapi.json, relative to the working directory',
  }),
};
export type DocsConfig = ConfigOf<typeof docsEnv>;
