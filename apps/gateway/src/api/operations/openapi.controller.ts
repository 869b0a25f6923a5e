import { Controller, Get } from '@nestjs/common';
import { Route } from '../../pipeline/routes/route-policy';
import { resolveDeclaredRoutes } from '../../pipeline/routes/resolved-routes';
import { buildOpenApiDocument } from '../../pipeline/openapi/openapi.document';

@Controller('v1/openapi.json')
export class OpenApiController {
  private document?: ReturnType<typeof buildOpenApiDocument>;

  @Get()
  @Route({
    summary: 'The OpenAPI 3.1 document of this API',
    tag: 'Documentation',
    auth: 'none',
    rateLimit: 'docs',
    response: { status: 200, description: 'OpenAPI 3.1 JSON' },
  })
  get() {
    this.document ??= buildOpenApiDocument(resolveDeclaredRoutes(), '1.0.0');
    return this.document;
  }
}
