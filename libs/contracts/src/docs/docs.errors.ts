import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of documentation search and pages. */
export const DocsErrorCatalog = {
  E04002: {
    status: 404,
    type: 'not_found_error',
    name: 'DocsPageNotFound',
    message: 'No documentation page has this slug.',
    description:
      'The slug does not name a page. `index` is the landing page; search with `/v1/docs/search`.',
  },
  E05004: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'DocsIndexUnavailable',
    message: 'Documentation search is temporarily unavailable.',
    description: 'The documentation index is being built or cannot be reached. Retry shortly.',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name, for throw sites: `new AppError(DocsErrors.DocsPageNotFound)`. */
export const DocsErrors = codesOf(DocsErrorCatalog);
