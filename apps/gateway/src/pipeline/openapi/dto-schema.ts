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

/** JSON Schema of a DTO, read from its class-validator decorators (the same rules that run). */
export function dtoSchema(dto: Constructor): JsonSchema {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const defaults = new dto() as Record<string, unknown>;
  const properties: Record<string, JsonSchema> = {};
  const optional = new Set<string>();
  for (const rule of metadata) {
    const property = (properties[rule.propertyName] ??= {});
    const [first, second] = (rule.constraints ?? []) as unknown[];
    if (rule.type === 'conditionalValidation') optional.add(rule.propertyName);
    switch (rule.name ?? '') {
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
