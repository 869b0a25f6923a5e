import type { FastifyInstance } from 'fastify';
import { declareNativeRoute } from '../../pipeline/routes/route-policy';
import type { WorkspaceService } from '../../identity/workspace.service';

/** `GET /v1/workspace`: served by Fastify directly, the most frequent read of the gateway's own data. */
export const CURRENT_WORKSPACE = declareNativeRoute({
  method: 'GET',
  path: '/v1/workspace',
  area: 'Workspace',
  action: 'current',
  policy: {
    summary: 'Get the workspace the credentials are scoped to',
    tag: 'Workspaces',
    auth: 'api',
    role: 'read',
    rateLimit: 'read',
    idempotent: false,
    paginated: false,
    response: { status: 200, description: 'The workspace' },
    errors: [401, 403, 404, 421, 422, 429, 500],
  },
});

/** The SDK's `Workspace`; Fastify compiles it into a serializer faster than JSON.stringify. */
const WORKSPACE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    organization_id: { type: 'string' },
    name: { type: 'string' },
    notification_emails: {
      type: 'object',
      properties: { operational: { type: 'array', items: { type: 'string' } } },
    },
    logo_url: { type: ['string', 'null'] },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;

export function registerWorkspaceRoutes(
  fastify: FastifyInstance,
  workspaces: WorkspaceService,
): void {
  fastify.get(
    CURRENT_WORKSPACE.path,
    { schema: { response: { 200: WORKSPACE_SCHEMA } } },
    (request) => workspaces.current(request.caller?.workspaceId),
  );
}
