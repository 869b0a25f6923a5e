/** Small helpers for driving the HTTP API in tests. */
export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface CreatedWorkspace {
  organization: { id: string; name: string };
  workspace: { id: string; name: string; organization_id: string; region: string };
  api_key: { id: string; role: string; secret: string };
  access_key: { id: string; secret: string };
}

export async function createWorkspace(
  base: string,
  adminToken: string,
  body: Record<string, unknown> = { name: 'Acme' },
): Promise<CreatedWorkspace> {
  const response = await call<CreatedWorkspace>(base, 'POST', '/admin/v1/workspaces', {
    token: adminToken,
    body,
  });
  if (response.status !== 201)
    throw new Error(
      `workspace creation failed: ${response.status} ${JSON.stringify(response.body)}`,
    );
  return response.body;
}

/**
 * Rate-limit windows are fixed minutes (floor(now / 60 s)): requests straddling a minute's end
 * meet a fresh quota. A test that counts what a quota has left starts early enough in a minute
 * (the gateway shares this machine's clock).
 */
export async function earlyInARateLimitWindow(marginMs = 10_000): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 60_000 - marginMs)
    await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
}
