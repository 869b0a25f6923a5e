import { ErrorCatalog } from '@switchboard/contracts';
import type { ResolvedRoute } from '../routes/resolved-routes';
import { dtoSchema } from './dto-schema';
import type { JsonSchema } from './dto-schema';

const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'name', 'message', 'doc_url', 'request_id'],
      properties: {
        type: { type: 'string' },
        code: { type: 'string', pattern: '^E\\d{5}$' },
        name: { type: 'string' },
        message: { type: 'string' },
        doc_url: { type: 'string', format: 'uri' },
        request_id: { type: 'string', pattern: '^req_' },
        param: { type: 'string' },
        details: { type: 'array' },
        vendor_code: { type: 'string' },
      },
    },
  },
};

const SECURITY: Record<string, Array<Record<string, string[]>>> = {
  api: [{ BearerAuth: [] }, { CookieAuth: [] }],
  access_key: [{ AccessKey: [] }],
  operator: [{ OperatorToken: [] }],
  none: [],
  session_login: [],
};

/** The OpenAPI 3.1 document of every declared route, built from the routes' policies and DTOs. */
export function buildOpenApiDocument(routes: ResolvedRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const { policy } = route;
    const parameters: unknown[] = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (policy.query) {
      const schema = dtoSchema(policy.query);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        parameters.push({
          name,
          in: 'query',
          required: schema.required?.includes(name) ?? false,
          schema: property,
        });
      }
    }
    if (policy.idempotent)
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      });
    const responses: Record<string, unknown> = {
      [String(policy.response?.status ?? 200)]: {
        description: policy.response?.description ?? 'Success',
        ...(policy.response?.schema
          ? { content: { 'application/json': { schema: policy.response.schema } } }
          : {}),
      },
    };
    for (const status of policy.errors)
      responses[String(status)] = {
        description: errorDescription(status),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      };
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: `${route.controller.replace(/Controller$/, '')}_${route.handler}`,
      summary: policy.summary,
      tags: [policy.tag],
      security: SECURITY[policy.auth],
      parameters,
      ...(policy.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: dtoSchema(policy.body) } },
            },
          }
        : {}),
      responses,
      'x-switchboard-policy': {
        rate_limit: policy.rateLimit,
        idempotent: policy.idempotent,
        paginated: policy.paginated,
        ...(policy.role ? { role: policy.role } : {}),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version,
      description:
        'Email, SMS, WhatsApp, verification, lookup, preferences, realtime and the workspace API, self-hosted.',
    },
    paths,
    components: {
      schemas: { ErrorEnvelope: ERROR_ENVELOPE },
      securitySchemes: {
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'API key bk_{region}_{token}' },
        CookieAuth: { type: 'apiKey', in: 'cookie', name: 'session' },
        AccessKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'AccessKey <key>',
        },
        OperatorToken: { type: 'http', scheme: 'bearer', description: 'PLATFORM_ADMIN_TOKEN' },
      },
    },
  };
}

function errorDescription(status: number): string {
  const codes = Object.entries(ErrorCatalog)
    .filter(([, definition]) => definition.status === status)
    .map(([code]) => code);
  return codes.length ? `Error envelope (${codes.join(', ')})` : 'Error envelope';
}
