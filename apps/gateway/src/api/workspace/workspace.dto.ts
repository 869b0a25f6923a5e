import type { SchemaValue } from '../../pipeline/openapi/dto-schema';

/**
 * The SDK's `Workspace`: one definition that Fastify compiles into the route's serializer, the
 * OpenAPI document publishes, and TypeScript reads the `WorkspaceDto` type from.
 */
export const WORKSPACE_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'organization_id',
    'name',
    'notification_emails',
    'logo_url',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    organization_id: { type: 'string' },
    name: { type: 'string' },
    notification_emails: {
      type: 'object',
      required: ['operational'],
      properties: { operational: { type: 'array', items: { type: 'string' } } },
    },
    logo_url: { type: ['string', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const;

export type WorkspaceDto = SchemaValue<typeof WORKSPACE_SCHEMA>;
