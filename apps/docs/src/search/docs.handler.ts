import { Controller } from '@nestjs/common';
import { Handles } from '@switchboard/platform';
import { Payload } from '@nestjs/microservices';
import { DocsSubjects } from '@switchboard/contracts';
import type {
  DocsHtml,
  DocsPage,
  DocsPageRequest,
  DocsSearchRequest,
  DocsSearchResponse,
} from '@switchboard/contracts';
import { DocsHtmlService } from '../html/docs-html.service';
import { DocsService } from './docs.service';

/** The gateway has validated the query; these only hand it to the service. */
@Controller()
export class DocsHandler {
  constructor(
    private readonly docs: DocsService,
    private readonly html: DocsHtmlService,
  ) {}

  @Handles(DocsSubjects.Search)
  search(@Payload() request: DocsSearchRequest): Promise<DocsSearchResponse> {
    return this.docs.search(request);
  }

  @Handles(DocsSubjects.ReadPage)
  readPage(@Payload() request: DocsPageRequest): Promise<DocsPage> {
    return this.docs.readPage(request);
  }

  @Handles(DocsSubjects.RenderSearch)
  renderSearch(@Payload() request: DocsSearchRequest): Promise<DocsHtml> {
    return this.html.renderSearch(request);
  }

  @Handles(DocsSubjects.RenderPage)
  renderPage(@Payload() request: DocsPageRequest): Promise<DocsHtml> {
    return this.html.renderPage(request);
  }
}
