import type { OpenApiDocument } from './openapi-markdown';
import { renderOpenApiMarkdown } from './openapi-markdown';
import { splitSections } from './markdown-sections';

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Switchboard API', version: '1.0.0' },
  paths: {
    '/v1/docs/search': {
      get: {
        summary: 'Search the documentation',
        parameters: [
          {
            name: 'q',
            in: 'query',
            required: true,
            description: 'Words to find',
            schema: { type: 'string' },
          },
          {
            name: 'contents',
            in: 'query',
            schema: { type: 'string', enum: ['snippet', 'highlights'], default: 'snippet' },
          },
        ],
        responses: {
          '200': {
            description: 'Ranked results',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/DocsSearchResponse' } },
            },
          },
        },
      },
    },
    '/v1/email/messages': {
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      post: {
        summary: 'Send an email',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/SendEmail' } } },
        },
        responses: {
          '202': { description: 'Accepted' },
          '422': { description: 'Invalid | rejected' },
        },
      },
    },
  },
  components: {
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        description: 'Retry safely',
        schema: { type: 'string' },
      },
    },
    schemas: {
      DocsSearchResponse: { type: 'object' },
      Recipient: {
        type: 'object',
        required: ['email'],
        properties: {
          email: { type: 'string', format: 'email' },
          name: { type: ['string', 'null'] },
        },
      },
      SendEmail: {
        allOf: [
          {
            type: 'object',
            required: ['to'],
            properties: {
              to: { type: 'array', items: { $ref: '#/components/schemas/Recipient' } },
            },
          },
        ],
        properties: { subject: { type: 'string', description: 'Subject line' } },
      },
    },
  },
};

describe(renderOpenApiMarkdown.name, () => {
  const markdown = renderOpenApiMarkdown(document);

  it('renders one ## section per operation, in document order', () => {
    const { title, sections } = splitSections(markdown, 'reference/api');
    expect(title).toBe('API reference');
    expect(sections.slice(1).map((s) => s.heading)).toEqual([
      'GET /v1/docs/search',
      'POST /v1/email/messages',
    ]);
  });

  it('lists parameters with type, requirement, enum and default, path-level ones included', () => {
    expect(markdown).toContain('| `q` | query | string | yes | Words to find |');
    expect(markdown).toContain(
      '| `contents` | query | string | no | One of `snippet`, `highlights`. Default `"snippet"`. |',
    );
    expect(markdown).toContain('| `Idempotency-Key` | header | string | no | Retry safely |');
  });

  it('flattens request body fields through $ref and allOf to dotted paths', () => {
    expect(markdown).toContain('**Request body** (`application/json`, required)');
    expect(markdown).toContain('| `to` | Recipient[] | yes |  |');
    expect(markdown).toContain('| `to[].email` | string (email) | yes |  |');
    expect(markdown).toContain('| `to[].name` | string or null | no |  |');
    expect(markdown).toContain('| `subject` | string | no | Subject line |');
  });

  it('lists responses with their schema and escapes pipes in cells', () => {
    expect(markdown).toContain('| 200 | Ranked results | DocsSearchResponse |');
    expect(markdown).toContain('| 422 | Invalid \\| rejected |  |');
  });
});
