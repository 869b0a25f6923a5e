/** The parts of an OpenAPI 3.1 document the reference page shows. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: {
    $ref?: string;
    required?: boolean;
    description?: string;
    content?: Record<string, { schema?: Schema }>;
  };
  responses?: Record<
    string,
    { $ref?: string; description?: string; content?: Record<string, { schema?: Schema }> }
  >;
}

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>;
  components?: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];
/** Nested request fields are listed to this depth (`to[].email`), deeper ones by their type only. */
const MAX_FIELD_DEPTH = 3;

/** Renders the API reference page: one `##` section per operation, in document order. */
export function renderOpenApiMarkdown(document: OpenApiDocument): string {
  const info = document.info ?? {};
  const lines = [
    '# API reference',
    '',
    `Generated from the OpenAPI ${document.openapi ?? '3.1'} document of ${info.title ?? 'the API'}${info.version ? ` ${info.version}` : ''}.`,
  ];
  if (info.description) lines.push('', info.description);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (operation)
        lines.push(
          '',
          ...renderOperation(document, method, path, operation, item.parameters ?? []),
        );
    }
  }
  return `${lines.join('\n')}\n`;
}

function renderOperation(
  document: OpenApiDocument,
  method: string,
  path: string,
  operation: Operation,
  shared: Parameter[],
): string[] {
  const lines = [`## ${method.toUpperCase()} ${path}`];
  if (operation.summary) lines.push('', operation.summary);
  if (operation.description && operation.description !== operation.summary)
    lines.push('', operation.description);
  if (operation.deprecated) lines.push('', '**Deprecated.**');

  // Operation parameters override path-level ones with the same name and location.
  const byKey = new Map<string, Parameter>();
  for (const parameter of [...shared, ...(operation.parameters ?? [])].map((p) =>
    resolve<Parameter>(document, p),
  )) {
    if (parameter.name && parameter.in) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  if (byKey.size > 0) {
    lines.push(
      '',
      '**Parameters**',
      '',
      '| Name | In | Type | Required | Description |',
      '|---|---|---|---|---|',
    );
    for (const p of byKey.values()) {
      const schema = p.schema ? resolve<Schema>(document, p.schema) : {};
      lines.push(
        row([
          `\`${p.name ?? ''}\``,
          p.in ?? '',
          typeLabel(p.schema),
          p.required ? 'yes' : 'no',
          describe(p.description ?? schema.description, schema),
        ]),
      );
    }
  }

  const body = operation.requestBody
    ? resolve<NonNullable<Operation['requestBody']>>(document, operation.requestBody)
    : undefined;
  const [mediaType, media] = Object.entries(body?.content ?? {})[0] ?? [];
  if (body && mediaType) {
    lines.push('', `**Request body** (\`${mediaType}\`${body.required ? ', required' : ''})`);
    if (body.description) lines.push('', body.description);
    const fields = media?.schema ? fieldRows(document, media.schema, '', 0, new Set()) : [];
    if (fields.length > 0)
      lines.push('', '| Field | Type | Required | Description |', '|---|---|---|---|', ...fields);
    else if (media?.schema) lines.push('', `Type: ${typeLabel(media.schema)}`);
  }

  const responses = Object.entries(operation.responses ?? {});
  if (responses.length > 0) {
    lines.push('', '**Responses**', '', '| Status | Description | Body |', '|---|---|---|');
    for (const [status, value] of responses) {
      const response = resolve<NonNullable<Operation['responses']>[string]>(document, value);
      const schema = Object.values(response.content ?? {})[0]?.schema;
      lines.push(row([status, response.description ?? '', schema ? typeLabel(schema) : '']));
    }
  }
  return lines;
}

/** One table row per field, nested objects and arrays of objects flattened to dotted paths. */
function fieldRows(
  document: OpenApiDocument,
  schema: Schema,
  prefix: string,
  depth: number,
  seen: Set<string>,
): string[] {
  if (schema.$ref && seen.has(schema.$ref)) return [];
  const visiting = schema.$ref ? new Set([...seen, schema.$ref]) : seen;
  const object = mergeAllOf(document, resolve<Schema>(document, schema));
  const rows: string[] = [];
  for (const [name, property] of Object.entries(object.properties ?? {})) {
    const resolved = mergeAllOf(document, resolve<Schema>(document, property));
    const path = `${prefix}${name}`;
    rows.push(
      row([
        `\`${path}\``,
        typeLabel(property),
        object.required?.includes(name) ? 'yes' : 'no',
        describe(property.description ?? resolved.description, resolved),
      ]),
    );
    if (depth + 1 >= MAX_FIELD_DEPTH) continue;
    if (resolved.properties)
      rows.push(...fieldRows(document, property, `${path}.`, depth + 1, visiting));
    else if (resolved.items)
      rows.push(...fieldRows(document, resolved.items, `${path}[].`, depth + 1, visiting));
  }
  return rows;
}

function mergeAllOf(document: OpenApiDocument, schema: Schema): Schema {
  if (!schema.allOf) return schema;
  const parts = schema.allOf.map((part) => mergeAllOf(document, resolve<Schema>(document, part)));
  return {
    ...schema,
    properties: Object.assign(
      {},
      ...parts.map((part) => part.properties),
      schema.properties,
    ) as Record<string, Schema>,
    required: [...parts.flatMap((part) => part.required ?? []), ...(schema.required ?? [])],
  };
}

function typeLabel(schema: Schema | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return schema.$ref.split('/').pop() ?? 'object';
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map((member) => typeLabel(member)).join(' or ');
  if (schema.allOf) return schema.allOf.length === 1 ? typeLabel(schema.allOf[0]) : 'object';
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const label = types
    .map((type) => (type === 'array' ? `${typeLabel(schema.items)}[]` : type))
    .join(' or ');
  return `${label || 'object'}${schema.format ? ` (${schema.format})` : ''}`;
}

function describe(description: string | undefined, schema: Schema): string {
  const notes = [description?.trim() ?? ''];
  if (schema.enum)
    notes.push(`One of ${schema.enum.map((value) => `\`${String(value)}\``).join(', ')}.`);
  if (schema.default !== undefined) notes.push(`Default \`${JSON.stringify(schema.default)}\`.`);
  return notes.filter(Boolean).join(' ');
}

/** Follows a local `$ref` (`#/components/schemas/Name`); anything else is returned as is. */
function resolve<T>(document: OpenApiDocument, value: unknown): T {
  let current = value as { $ref?: unknown };
  for (
    let hops = 0;
    typeof current?.$ref === 'string' && current.$ref.startsWith('#/') && hops < 10;
    hops++
  ) {
    let target: unknown = document;
    for (const segment of current.$ref.slice(2).split('/')) {
      target = (target as Record<string, unknown> | undefined)?.[
        segment.replace(/~1/g, '/').replace(/~0/g, '~')
      ];
    }
    if (target === undefined) break;
    current = target as { $ref?: unknown };
  }
  return current as T;
}

function row(cells: string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')).join(' | ')} |`;
}
