import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDeclaredRoutes } from '../routes/resolved-routes';
import '../../gateway.module';
import { buildOpenApiDocument } from './openapi.document';

describe('OpenAPI document', () => {
  const document = buildOpenApiDocument(resolveDeclaredRoutes(), '1.0.0');

  it('matches the committed docs/reference/openapi.json (regenerate with node tools/openapi.mjs)', () => {
    const committed: unknown = JSON.parse(
      readFileSync(join(__dirname, '../../../../../docs/reference/openapi.json'), 'utf8'),
    );
    expect(JSON.parse(JSON.stringify(document))).toEqual(committed);
  });

  it('describes query parameters and bodies from the DTO validation rules', () => {
    const search = document.paths['/v1/docs/search'].get as {
      parameters: Array<{ name: string; required: boolean; schema: Record<string, unknown> }>;
    };
    expect(search.parameters).toEqual(
      expect.arrayContaining([
        {
          name: 'q',
          in: 'query',
          required: true,
          schema: expect.objectContaining({ type: 'string', minLength: 1 }),
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: expect.objectContaining({
            type: 'integer',
            minimum: 1,
            maximum: 25,
            default: 10,
          }),
        },
        {
          name: 'contents',
          in: 'query',
          required: false,
          schema: expect.objectContaining({ enum: ['snippet', 'highlights'] }),
        },
      ]),
    );
    const create = document.paths['/admin/v1/workspaces'].post as {
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
    };
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name']);
  });
});
