import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { CommonErrors, DocsSubjects } from '@switchboard/contracts';
import type {
  DocsHtml,
  DocsPage,
  DocsSearchResponse,
  RequestContext,
} from '@switchboard/contracts';
import { AppError, ServiceClient } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { ReadDocsPageQuery, SearchDocsQuery } from './docs.dto';
import { prefersHtml } from './prefers-html';

const docs = {
  tag: 'Documentation',
  auth: 'none',
  rateLimit: 'docs',
} as const;

/**
 * Documentation search and pages, answered by the docs service. No authentication. A browser
 * (Accept ranking text/html above JSON) gets an HTML document; everyone else the JSON as before.
 */
@Controller('v1/docs')
export class DocsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('search')
  @Route({
    ...docs,
    summary: 'Search the documentation',
    query: SearchDocsQuery,
    response: {
      status: 200,
      description: 'Ranked results, best first (an HTML page when Accept prefers text/html)',
    },
  })
  async search(
    @ValidQuery() query: SearchDocsQuery,
    @CallContext() context: RequestContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DocsSearchResponse | string> {
    void reply.header('vary', 'Accept');
    if (query.q.trim() === '')
      throw new AppError(CommonErrors.BadRequest, {
        message: 'The search query q must not be blank.',
      });
    const search = {
      q: query.q.trim(),
      locale: query.locale,
      limit: query.limit,
      contents: query.contents,
    };
    if (prefersHtml(request.headers.accept))
      return sendHtml(reply, await this.services.send(DocsSubjects.RenderSearch, search, context));
    return this.services.send(DocsSubjects.Search, search, context);
  }

  @Get('pages')
  @Route({
    ...docs,
    summary: 'Read a documentation page as Markdown',
    query: ReadDocsPageQuery,
    response: {
      status: 200,
      description:
        'The page (JSON; text/markdown with format=markdown; an HTML page when Accept prefers text/html)',
    },
    errors: [404],
  })
  async page(
    @ValidQuery() query: ReadDocsPageQuery,
    @CallContext() context: RequestContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DocsPage | string> {
    const wanted = { slug: query.slug, locale: query.locale };
    if (query.format !== 'markdown') {
      void reply.header('vary', 'Accept');
      if (prefersHtml(request.headers.accept))
        return sendHtml(reply, await this.services.send(DocsSubjects.RenderPage, wanted, context));
    }
    const page = await this.services.send(DocsSubjects.ReadPage, wanted, context);
    if (query.format === 'markdown') {
      void reply.header('content-type', 'text/markdown; charset=utf-8');
      return page.markdown;
    }
    return page;
  }
}

/** An HTML document with the headers a browser needs to treat it as nothing more than a page. */
function sendHtml(reply: FastifyReply, document: DocsHtml): string {
  void reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', document.content_security_policy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
  return document.html;
}
