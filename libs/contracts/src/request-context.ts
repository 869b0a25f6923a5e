export type CallerKind = 'api_key' | 'session' | 'access_key' | 'operator' | 'anonymous';
export type Role = 'read' | 'write' | 'admin';

/** Who is calling and for which workspace; travels with every transport request as headers. */
export interface RequestContext {
  requestId: string;
  workspaceId?: string;
  organizationId?: string;
  caller: { kind: CallerKind; id?: string; role?: Role };
  idempotencyKey?: string;
  /** Hash of method, path and body: the same key with another request is a conflict. */
  idempotencyFingerprint?: string;
  /** Public origin of the gateway (scheme and host), for URLs a service returns. */
  publicOrigin?: string;
}

/** Transport header names; lowercase, as NATS and HTTP both carry them. */
export const ContextHeaders = {
  RequestId: 'x-request-id',
  WorkspaceId: 'x-workspace-id',
  OrganizationId: 'x-organization-id',
  Caller: 'x-caller',
  IdempotencyKey: 'idempotency-key',
  IdempotencyFingerprint: 'x-idempotency-fingerprint',
  PublicOrigin: 'x-public-origin',
} as const;

export function contextToHeaders(context: RequestContext): Record<string, string> {
  const headers: Record<string, string> = {
    [ContextHeaders.RequestId]: context.requestId,
    [ContextHeaders.Caller]: JSON.stringify(context.caller),
  };
  if (context.workspaceId) headers[ContextHeaders.WorkspaceId] = context.workspaceId;
  if (context.organizationId) headers[ContextHeaders.OrganizationId] = context.organizationId;
  if (context.idempotencyKey) headers[ContextHeaders.IdempotencyKey] = context.idempotencyKey;
  if (context.idempotencyFingerprint)
    headers[ContextHeaders.IdempotencyFingerprint] = context.idempotencyFingerprint;
  if (context.publicOrigin) headers[ContextHeaders.PublicOrigin] = context.publicOrigin;
  return headers;
}

export function contextFromHeaders(get: (name: string) => string | undefined): RequestContext {
  let caller: RequestContext['caller'] = { kind: 'anonymous' };
  const rawCaller = get(ContextHeaders.Caller);
  if (rawCaller) {
    try {
      caller = JSON.parse(rawCaller) as RequestContext['caller'];
    } catch {
      caller = { kind: 'anonymous' };
    }
  }
  return {
    requestId: get(ContextHeaders.RequestId) ?? 'req_unknown',
    workspaceId: get(ContextHeaders.WorkspaceId) || undefined,
    organizationId: get(ContextHeaders.OrganizationId) || undefined,
    idempotencyKey: get(ContextHeaders.IdempotencyKey) || undefined,
    idempotencyFingerprint: get(ContextHeaders.IdempotencyFingerprint) || undefined,
    publicOrigin: get(ContextHeaders.PublicOrigin) || undefined,
    caller,
  };
}
