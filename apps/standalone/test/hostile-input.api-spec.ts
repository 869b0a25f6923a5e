import { createWorkspace } from '@switchboard/testing';
import fc from 'fast-check';
import type { TestPlatform } from './test-platform';
import { startTestPlatform } from './test-platform';

/**
 * Hostile input, generated from the served OpenAPI document: every operation, with hostile text,
 * wrong types and huge values in every path, query, header and body field. Whatever arrives, the
 * answer is never a 5xx, every error is the envelope with X-Request-Id, and nothing hangs.
 * Runs are seeded (FC_SEED overrides the seed, FC_RUNS the runs per operation).
 */
const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 25);
const ANSWER_WITHIN_MS = 10_000;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: { type?: string; enum?: unknown[] };
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { properties?: Record<string, { type?: string; enum?: unknown[]; format?: string }> };
  security: Array<Record<string, unknown>>;
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const hostileText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udc00y',
      '👋',
      "' OR 1=1 --",
      '%',
      '%00',
      '../../etc/passwd',
      'null',
      '\\u0000',
      '<script>',
    ),
  },
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: anyCodeUnit, maxLength: 20 }),
  fc.string({ minLength: 2_000, maxLength: 6_000 }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(1e308, -1, 0, Number.MAX_SAFE_INTEGER + 2),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(hostileText, hostileText, { maxKeys: 3 }),
);

/** Percent-encodes text the way a client might; a lone surrogate becomes invalid UTF-8 bytes. */
function encode(text: string): string {
  let out = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += `%${(0xe0 | (unit >> 12)).toString(16)}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16)}%${(0x80 | (unit & 0x3f)).toString(16)}`;
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** A value the operation's schema accepts, so the other fields do not fail first. */
function validSample(schema: {
  type?: string;
  enum?: unknown[];
  format?: string;
  minLength?: number;
}): unknown {
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === 'boolean') return true;
  if (schema.type === 'integer' || schema.type === 'number') return 1;
  if (schema.format === 'email') return 'someone@example.com';
  return 'Valid value 12345';
}

/** Only values fetch can put on the wire: Latin-1 without CR, LF or NUL. */
const sendableHeader = (value: string) => !/[^\t\x20-\x7e\x80-\xff]/.test(value);

describe('hostile input, generated from the OpenAPI document', () => {
  let platform: TestPlatform;
  let operations: Operation[];
  const known: Record<string, string[]> = {};
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    platform = await startTestPlatform({
      RATE_LIMITS:
        'api_list=1000000,read=1000000,write=1000000,admin=1000000,auth=1000000,docs=1000000',
    });
    const acme = await createWorkspace(platform.base, platform.adminToken);
    tokens.OperatorToken = platform.adminToken;
    tokens.BearerAuth = acme.api_key.secret;
    const created = await fetch(`${platform.base}/v1/realtime/apps`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${acme.api_key.secret}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'Target', region: 'us1' }),
    });
    const { app, key } = (await created.json()) as { app: { id: string }; key: { id: string } };
    known.workspace_id = [acme.workspace.id];
    known.realtime_app_id = [app.id];
    known.realtime_app_key_id = [key.id];
    const document = (await (await fetch(`${platform.base}/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          Omit<Operation, 'method' | 'path'> & {
            requestBody?: { content: Record<string, { schema: Operation['body'] }> };
          }
        >
      >;
    };
    operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters,
        body: op.requestBody?.content['application/json'].schema,
        security: op.security,
      })),
    );
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('finds every operation of the served document', () => {
    expect(operations.length).toBeGreaterThan(15);
  });

  /**
   * One request for `op`: well-formed but for one place (a path segment, a query parameter, a
   * header, a body field, the whole body or its content type), so the hostile value gets past
   * the checks that come before it and reaches what it targets.
   */
  function requestFor(op: Operation) {
    const pathNames = [...op.path.matchAll(/\{([a-z_]+)\}/g)].map(([, name]) => name);
    const validPath = pathNames.map((name) => known[name]?.[0] ?? 'x');
    const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    const properties = op.body?.properties ?? {};
    const validBody = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, validSample(schema)]),
    );
    const base = {
      path: validPath,
      query: [] as Array<[string, string]>,
      body: op.body ? JSON.stringify(validBody) : (undefined as string | Buffer | undefined),
      contentType: 'application/json' as string | undefined,
      headers: {} as Record<string, string>,
    };
    const brokenSegments = fc.constantFrom(
      '%',
      '%zz',
      '%E0%A4%A',
      '%00',
      '%ED%A0%80',
      'x'.repeat(600),
    );
    const mutations: Array<fc.Arbitrary<typeof base>> = [
      fc.constant(base),
      fc
        .tuple(
          fc.oneof(hostileText, fc.constantFrom(...queryNames, 'unknown')),
          fc.oneof(
            hostileText,
            hostileValue.map((v) => JSON.stringify(v) ?? ''),
          ),
        )
        .map(([name, value]) => ({
          ...base,
          query: [[name, value] as [string, string]],
        })),
      fc
        .record({
          name: fc.constantFrom(
            'idempotency-key',
            'x-workspace-id',
            'authorization',
            'x-csrf-token',
          ),
          value: hostileText,
        })
        .filter(({ value }) => sendableHeader(value))
        .map(({ name, value }) => ({ ...base, headers: { [name]: value } })),
      fc
        .constantFrom(
          'text/plain',
          'application/json; charset=utf-16',
          'multipart/form-data',
          undefined,
        )
        .map((contentType) => ({ ...base, contentType, body: base.body ?? '{}' })),
      fc
        .oneof(
          hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
          fc.constantFrom(
            '{',
            '{"a":',
            '[]',
            '"\\u0000"',
            '{"name":"\\ud800"}',
            '\u0000',
            'not json',
          ),
          fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
        )
        .map((body) => ({ ...base, body })),
    ];
    if (pathNames.length) {
      mutations.push(
        fc
          .tuple(fc.nat(pathNames.length - 1), fc.oneof(hostileText.map(encode), brokenSegments))
          .map(([index, value]) => ({
            ...base,
            path: validPath.map((v, i) => (i === index ? value : v)),
          })),
      );
    }
    const names = Object.keys(properties);
    mutations.push(
      fc
        .tuple(
          fc.oneof(fc.constantFrom(...(names.length ? names : ['unknown'])), hostileText),
          hostileValue,
        )
        .map(([name, value]) => ({
          ...base,
          body: JSON.stringify({ ...validBody, [name]: value }),
        })),
    );
    // The classes of input that once reached a 500, tried on every operation before the random runs.
    const examples: Array<typeof base> = [
      ...pathNames.flatMap((_, index) =>
        ['%00', '%ED%A0%80', '%', 'x'.repeat(600)].map((value) => ({
          ...base,
          path: validPath.map((v, i) => (i === index ? value : v)),
        })),
      ),
      ...[...queryNames, 'unknown'].flatMap((name) =>
        ['\u0000', '\ud800'].map((value) => ({
          ...base,
          query: [[name, value] as [string, string]],
        })),
      ),
      ...Object.keys(properties).flatMap((name) =>
        ['\u0000', 'a\ud800', 12, null, ['x'], 'x'.repeat(5_000)].map((value) => ({
          ...base,
          body: JSON.stringify({ ...validBody, [name]: value }),
        })),
      ),
    ];
    type Input = { request: typeof base; authenticated: boolean };
    return {
      examples: examples.map((request): [Input] => [{ request, authenticated: true }]),
      arbitrary: fc.record({
        request: fc.oneof(...mutations),
        authenticated: fc.integer({ min: 0, max: 7 }).map((n) => n > 0),
      }),
    };
  }

  it.each([0])('answers every operation without a 5xx, in the envelope, in time', async () => {
    for (const op of operations) {
      const { arbitrary, examples } = requestFor(op);
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ request: input, authenticated }) => {
          let index = 0;
          const path = op.path.replace(/\{[a-z_]+\}/g, () => input.path[index++]);
          const search = input.query
            .map(([name, value]) => `${encode(name)}=${encode(value)}`)
            .join('&');
          const headers: Record<string, string> = {};
          const scheme = Object.keys(op.security[0] ?? {})[0];
          if (authenticated && scheme && tokens[scheme])
            headers.authorization = `Bearer ${tokens[scheme]}`;
          if (input.contentType && input.body !== undefined)
            headers['content-type'] = input.contentType;
          Object.assign(headers, input.headers);
          const sendsBody = input.body !== undefined && !['GET', 'HEAD'].includes(op.method);
          const response = await fetch(`${platform.base}${path}${search ? `?${search}` : ''}`, {
            method: op.method,
            headers,
            body: sendsBody ? input.body : undefined,
            signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
          });
          const text = await response.text();
          const where = `${op.method} ${path}?${search} -> ${response.status} ${text.slice(0, 300)}`;
          expect({ where, serverError: response.status >= 500 }).toEqual({
            where,
            serverError: false,
          });
          const requestId = response.headers.get('x-request-id');
          expect({ where, requestId }).toEqual({
            where,
            requestId: expect.stringMatching(/^req_/),
          });
          if (response.status >= 400 && op.method !== 'HEAD') {
            const error = (JSON.parse(text) as { error: Record<string, unknown> }).error;
            expect({ where, error }).toEqual({
              where,
              error: expect.objectContaining({
                code: expect.stringMatching(/^E\d{5}$/),
                type: expect.any(String),
                message: expect.any(String),
                doc_url: expect.stringMatching(/^https?:\/\/[^/]/),
                request_id: requestId,
              }),
            });
            if (error.code === 'E01001')
              expect((error.details as unknown[]).length).toBeGreaterThan(0);
          }
        }),
        { numRuns: RUNS + examples.length, seed: SEED, examples },
      );
    }
  });
});
