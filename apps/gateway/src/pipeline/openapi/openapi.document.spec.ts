import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDeclaredRoutes } from '../routes/resolved-routes';
import '../../gateway.module';
import { buildOpenApiDocument } from './openapi.document';
import type { JsonSchema } from './dto-schema';

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

  it('describes arrays by their items and nested DTOs by their own rules', () => {
    type Body = { requestBody: { content: { 'application/json': { schema: JsonSchema } } } };
    const rule = (document.paths['/v1/sms/keyword-rules'].post as Body).requestBody.content[
      'application/json'
    ].schema;
    expect(rule.properties?.keywords).toEqual({
      type: 'array',
      maxItems: 20,
      items: { type: 'string', maxLength: 100 },
    });
    const verification = (document.paths['/v1/verify/verifications'].post as Body).requestBody
      .content['application/json'].schema;
    expect(verification.properties?.to).toMatchObject({
      type: 'object',
      properties: { email: { type: 'string' }, phone_number: { type: 'string' } },
      additionalProperties: false,
    });
    const list = document.paths['/v1/sms/messages'].get as {
      parameters: Array<{ name: string; schema: JsonSchema }>;
    };
    expect(list.parameters.find((p) => p.name === 'status')?.schema).toMatchObject({
      type: 'array',
      items: { enum: expect.arrayContaining(['delivered']) },
    });
  });
});
