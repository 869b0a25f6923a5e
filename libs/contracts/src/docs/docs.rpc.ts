import type { Rpc } from '../rpc';
import type { DocsSubjects } from './docs';
import type {
  DocsHtml,
  DocsPage,
  DocsPageRequest,
  DocsSearchRequest,
  DocsSearchResponse,
} from './docs';

/** The docs service's operations, by subject. */
export interface DocsRpc {
  [DocsSubjects.Search]: Rpc<DocsSearchRequest, DocsSearchResponse>;
  [DocsSubjects.ReadPage]: Rpc<DocsPageRequest, DocsPage>;
  [DocsSubjects.RenderSearch]: Rpc<DocsSearchRequest, DocsHtml>;
  [DocsSubjects.RenderPage]: Rpc<DocsPageRequest, DocsHtml>;
}
