import { Controller, Get, Inject, Res } from '@nestjs/common';
import { CommonErrors, DocsSubjects } from '@switchboard/contracts';
import type { DocsPage, DocsSearchResponse, RequestContext } from '@switchboard/contracts';
import { AppError, ServiceClient } from '@switchboard/platform';
import type { FastifyReply } from 'fastify';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { ReadDocsPageQuery, SearchDocsQuery } from './docs.dto';

const docs = {
  tag: 'Documentation',
  auth: 'none',
  rateLimit: 'docs',
} as const;

/** Documentation search and pages, answered by the docs service. No authentication. */
@Controller('v1/docs')
export class DocsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('search')
  @Route({
    ...docs,
    summary: 'Search the documentation',
    query: SearchDocsQuery,
    response: { status: 200, description: 'Ranked results, best first' },
  })
  search(
    @ValidQuery() query: SearchDocsQuery,
    @CallContext() context: RequestContext,
  ): Promise<DocsSearchResponse> {
    if (query.q.trim() === '')
      throw new AppError(CommonErrors.BadRequest, {
        message: 'The search query q must not be blank.',
      });
    return this.services.send(
      DocsSubjects.Search,
      { q: query.q.trim(), locale: query.locale, limit: query.limit, contents: query.contents },
      context,
    );
  }

  @Get('pages')
  @Route({
    ...docs,
    summary: 'Read a documentation page as Markdown',
    query: ReadDocsPageQuery,
    response: {
      status: 200,
      description: 'The page (JSON, or text/markdown with format=markdown)',
    },
    errors: [404],
  })
  async page(
    @ValidQuery() query: ReadDocsPageQuery,
    @CallContext() context: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DocsPage | string> {
    const page = await this.services.send(
      DocsSubjects.ReadPage,
      { slug: query.slug, locale: query.locale },
      context,
    );
    if (query.format === 'markdown') {
      void reply.header('content-type', 'text/markdown; charset=utf-8');
      return page.markdown;
    }
    return page;
  }
}
