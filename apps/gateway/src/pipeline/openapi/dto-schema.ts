import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';

export interface JsonSchema {
  type?: string | readonly string[];
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  properties?: Readonly<Record<string, JsonSchema>>;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  required?: readonly string[];
  additionalProperties?: boolean;
}

type Constructor = new () => object;

type Primitive<T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : never;

/**
 * The TypeScript type of a value a (response) JSON Schema describes, for the subset the gateway
 * writes by hand: objects with required properties, arrays, primitives and nullable unions.
 */
export type SchemaValue<S> = S extends { type: 'object'; properties: infer P }
  ? { -readonly [K in keyof P]: SchemaValue<P[K]> }
  : S extends { type: 'array'; items: infer I }
    ? Array<SchemaValue<I>>
    : S extends { type: readonly (infer T)[] }
      ? Primitive<T>
      : S extends { type: infer T }
        ? Primitive<T>
        : unknown;

/**
 * JSON Schema of a DTO, read from its class-validator decorators (the same rules that run): a
 * rule with `each` describes an array's items, `@ValidateNested` with `@Type` the nested DTO.
 */
export function dtoSchema(
  dto: Constructor,
  seen: ReadonlySet<Constructor> = new Set(),
): JsonSchema {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const defaults = new dto() as Record<string, unknown>;
  const properties: Record<string, JsonSchema> = {};
  const items: Record<string, JsonSchema> = {};
  const optional = new Set<string>();
  for (const rule of metadata) {
    const name = rule.propertyName;
    const property = (properties[name] ??= {});
    const target = rule.each ? (items[name] ??= {}) : property;
    const [first, second] = (rule.constraints ?? []) as unknown[];
    if (rule.type === 'conditionalValidation') optional.add(name);
    if (rule.type === 'nestedValidation') {
      const nested = nestedType(dto, name);
      if (nested && !seen.has(nested))
        Object.assign(
          rule.each || property.type === 'array' ? (items[name] ??= {}) : property,
          dtoSchema(nested, new Set([...seen, dto])),
        );
      continue;
    }
    switch (rule.name ?? '') {
      case 'isArray':
        property.type = 'array';
        break;
      case 'arrayMinSize':
        property.minItems = first as number;
        break;
      case 'arrayMaxSize':
        property.maxItems = first as number;
        break;
      default:
        describe(target, rule.name ?? '', first, second);
    }
  }
  for (const [name, schema] of Object.entries(items)) {
    properties[name].type = 'array';
    properties[name].items = schema;
  }
  for (const [name, value] of Object.entries(defaults)) {
    if (value !== undefined && properties[name]) properties[name].default = value;
  }
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** The class `@Type(() => Dto)` names for a property, if any. */
function nestedType(dto: Constructor, property: string): Constructor | undefined {
  const metadata = defaultMetadataStorage.findTypeMetadata(dto, property);
  const type = metadata?.typeFunction?.() as Constructor | undefined;
  return typeof type === 'function' && type !== Object ? type : undefined;
}

/** What one class-validator rule says of a value, in JSON Schema. */
function describe(property: JsonSchema, rule: string, first: unknown, second: unknown): void {
  switch (rule) {
    case 'isString':
      property.type = 'string';
      break;
    case 'isInt':
      property.type = 'integer';
      break;
    case 'isNumber':
      property.type = 'number';
      break;
    case 'isBoolean':
      property.type = 'boolean';
      break;
    case 'isEmail':
      property.type = 'string';
      property.format = 'email';
      break;
    case 'isIn':
      property.enum = first as unknown[];
      break;
    case 'min':
      property.minimum = first as number;
      break;
    case 'max':
      property.maximum = first as number;
      break;
    case 'minLength':
      property.minLength = first as number;
      break;
    case 'maxLength':
      property.maxLength = first as number;
      break;
    case 'isNotEmpty':
      property.minLength = Math.max(property.minLength ?? 0, 1);
      break;
    case 'matches':
      property.pattern = (
        first instanceof RegExp
          ? first
          : new RegExp(String(first), typeof second === 'string' ? second : '')
      ).source;
      break;
    default:
      break;
  }
}
