import type { FastifyInstance } from 'fastify';
import { declareNativeRoute } from '../../pipeline/routes/route-policy';
import type { WorkspaceService } from '../../identity/workspace.service';
import { WORKSPACE_SCHEMA } from './workspace.dto';

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
    response: { status: 200, description: 'The workspace', schema: WORKSPACE_SCHEMA },
    errors: [404],
  },
});

export function registerWorkspaceRoutes(
  fastify: FastifyInstance,
  workspaces: WorkspaceService,
): void {
  fastify.get(
    CURRENT_WORKSPACE.path,
    { schema: { response: { 200: CURRENT_WORKSPACE.policy.response?.schema } } },
    (request) => workspaces.current(request.caller?.workspaceId),
  );
}
