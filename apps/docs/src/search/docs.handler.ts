import { Controller } from '@nestjs/common';
import { Handles } from '@switchboard/platform';
import { Payload } from '@nestjs/microservices';
import { DocsSubjects } from '@switchboard/contracts';
import type {
  DocsPage,
  DocsPageRequest,
  DocsSearchRequest,
  DocsSearchResponse,
} from '@switchboard/contracts';
import { DocsService } from './docs.service';

/** The gateway has validated the query; these only hand it to the service. */
@Controller()
export class DocsHandler {
  constructor(private readonly docs: DocsService) {}

  @Handles(DocsSubjects.Search)
  search(@Payload() request: DocsSearchRequest): Promise<DocsSearchResponse> {
    return this.docs.search(request);
  }

  @Handles(DocsSubjects.ReadPage)
  readPage(@Payload() request: DocsPageRequest): Promise<DocsPage> {
    return this.docs.readPage(request);
  }
}
