import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationArguments, ValidatorConstraintInterface } from 'class-validator';

/**
 * Answers true only when class-validator's `validateSync(instance, { whitelist: true,
 * forbidNonWhitelisted: true, forbidUnknownValues: true })` would find no error. False means
 * "not sure": the caller runs class-validator itself, which then names every problem.
 */
export type ValidCheck = (instance: object) => boolean;

/** One decorator's rule on a property, with the constraint objects class-validator would call. */
interface Rule {
  property: string;
  constraints: unknown[];
  each: boolean;
  validateIf?: (object: unknown, value: unknown) => boolean;
  validators: ValidatorConstraintInterface[];
}

interface PropertyRules {
  name: string;
  /** `@IsOptional`, `@ValidateIf`: when any says no, the property's rules are skipped. */
  conditions: Array<(object: unknown, value: unknown) => unknown>;
  /** `@IsDefined` first, then the others, as class-validator runs them. */
  rules: Rule[];
  /** `@ValidateNested`: an object value must pass its own class's check. */
  nested: boolean;
}

const compiled = new WeakMap<object, ValidCheck | null>();

/**
 * The check of a DTO class, built once from class-validator's own metadata: the same decorators,
 * the same constraint objects and arguments, without the per-call metadata search (which walks
 * every decorated class in the process), grouping and error objects that a valid request pays
 * for in `validateSync`. A class with nested or promise validation (or none at all) gets null:
 * it always takes class-validator's path.
 */
export function compiledCheck(type: new () => object): ValidCheck | null {
  let check = compiled.get(type);
  if (check === undefined) {
    check = compile(type);
    compiled.set(type, check);
  }
  return check;
}

function compile(type: new () => object): ValidCheck | null {
  const storage = getMetadataStorage();
  // The arguments class-validator's executor passes when no groups or `always` are configured.
  const metadatas = storage.getTargetValidationMetadatas(
    type,
    undefined as unknown as string,
    false,
    false,
    undefined,
  );
  if (metadatas.length === 0) return null;
  const grouped = storage.groupByPropertyName(metadatas);
  const allowed = new Set<string>();
  const properties: PropertyRules[] = [];
  for (const [name, list] of Object.entries(grouped)) {
    if (list.length > 0) allowed.add(name);
    const others = list.filter(
      (m) => m.type !== ValidationTypes.IS_DEFINED && m.type !== ValidationTypes.WHITELIST,
    );
    const supported = [
      ValidationTypes.CUSTOM_VALIDATION,
      ValidationTypes.CONDITIONAL_VALIDATION,
      ValidationTypes.NESTED_VALIDATION,
    ];
    if (others.some((m) => !supported.includes(m.type))) return null;
    const rulesOf = (kind: string): Rule[] =>
      list
        .filter((m) => m.type === kind)
        .map((m) => ({
          property: m.propertyName,
          constraints: m.constraints as unknown[],
          each: m.each,
          validateIf: m.validateIf,
          // Asynchronous constraints are skipped by validateSync.
          validators: storage
            .getTargetValidatorConstraints(m.constraintCls)
            .filter((c) => !c.async)
            .map((c) => c.instance),
        }));
    properties.push({
      name,
      conditions: others
        .filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION)
        .map((m) => m.constraints[0] as (object: unknown, value: unknown) => unknown),
      rules: [
        ...rulesOf(ValidationTypes.IS_DEFINED),
        ...rulesOf(ValidationTypes.CUSTOM_VALIDATION),
      ],
      nested: others.some((m) => m.type === ValidationTypes.NESTED_VALIDATION),
    });
  }
  return (instance) => {
    for (const key of Object.keys(instance)) if (!allowed.has(key)) return false;
    const object = instance as Record<string, unknown>;
    for (const property of properties) {
      const value = object[property.name];
      // Every condition is evaluated, as class-validator does (map, then reduce).
      let canValidate = true;
      for (const condition of property.conditions)
        canValidate = !!condition(object, value) && canValidate;
      if (!canValidate) continue;
      for (const rule of property.rules) if (!passes(rule, object, value)) return false;
      if (property.nested && !nestedPasses(value)) return false;
    }
    return true;
  };
}

/**
 * `@ValidateNested` as class-validator runs it: nothing to check when absent; an object is
 * validated against its own class (here, that class's check). An array, a set or a map (checked
 * item by item) is left to class-validator, as is anything else (which it refuses).
 */
function nestedPasses(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value) || value instanceof Set || value instanceof Map) return false;
  const check = compiledCheck(value.constructor as new () => object);
  return check !== null && check(value);
}

function passes(rule: Rule, object: Record<string, unknown>, value: unknown): boolean {
  if (rule.validateIf && !rule.validateIf(object, value)) return true;
  const args: ValidationArguments = {
    targetName: (object.constructor as { name?: string } | undefined)?.name as string,
    property: rule.property,
    object,
    value,
    constraints: rule.constraints,
  };
  const items =
    rule.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)
      ? value instanceof Map
        ? [...value.values()]
        : [...(value as Iterable<unknown>)]
      : undefined;
  for (const validator of rule.validators) {
    if (items === undefined) {
      if (!holds(validator.validate(value, args))) return false;
      continue;
    }
    for (const item of items) if (!holds(validator.validate(item, args))) return false;
  }
  return true;
}

/** A promise is an answer only class-validator can settle: "not sure". */
function holds(result: unknown): boolean {
  return !!result && !(result instanceof Promise);
}

/** Builds a DTO instance from a parsed body, or answers undefined when it cannot vouch for it. */
export type InstanceBuild = (plain: unknown) => object | undefined;

const builds = new WeakMap<object, InstanceBuild | null>();

/**
 * What `plainToInstance(type, plain, { exposeDefaultValues: true })` makes of a body whose keys
 * are all the DTO's validated properties: `new type()` with their values (arrays and objects
 * copied, as class-transformer copies them), built without its per-key metadata lookups. Null for a class with class-transformer
 * decorators or accessors of its own; for any other body the build answers undefined, and the
 * caller uses plainToInstance.
 */
export function compiledBuild<T extends object>(
  type: new () => T,
): ((plain: unknown) => T | undefined) | null {
  let build = builds.get(type);
  if (build === undefined) {
    build = compileBuild(type);
    builds.set(type, build);
  }
  return build as ((plain: unknown) => T | undefined) | null;
}

/** The properties class-validator knows of a class (none for `Number`, `Object`...). */
function validatedNames(type: new () => object): string[] {
  return Object.keys(
    getMetadataStorage().groupByPropertyName(
      getMetadataStorage().getTargetValidationMetadatas(
        type,
        undefined as unknown as string,
        false,
        false,
        undefined,
      ),
    ),
  );
}

function compileBuild(type: new () => object): InstanceBuild | null {
  const names = validatedNames(type);
  const storage = defaultMetadataStorage;
  if (storage.getExposedMetadatas(type).length || storage.getExcludedMetadatas(type).length)
    return null;
  const blank = new type() as Record<string, unknown>;
  const nestedTypes = new Map<string, new () => object>();
  for (const name of names) {
    if (name === '__proto__' || name === 'constructor' || typeof blank[name] === 'function')
      return null;
    const typed = storage.findTypeMetadata(type, name);
    if (typed) {
      // `@Type(() => Dto)` of a validated class alone: a conversion (`Number`, `Date`), a
      // discriminator or a map is class-transformer's to do.
      if (typed.options?.discriminator || typed.reflectedType === Map || !typed.typeFunction)
        return null;
      const target = typed.typeFunction() as new () => object;
      if (!validatedNames(target).length) return null;
      nestedTypes.set(name, target);
    }
    if (storage.findTransformMetadatas(type, name, TransformationType.PLAIN_TO_CLASS).length)
      return null;
    for (let at: unknown = type.prototype; at; at = Object.getPrototypeOf(at))
      if (Object.getOwnPropertyDescriptor(at, name)) return null;
  }
  const allowed = new Set(names);
  return (plain) => {
    if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return undefined;
    const instance = new type() as Record<string, unknown>;
    for (const key of Object.keys(plain)) {
      if (!allowed.has(key)) return undefined;
      const raw = (plain as Record<string, unknown>)[key];
      const nestedType = nestedTypes.get(key);
      const value = nestedType ? nestedBuild(nestedType, raw) : jsonCopy(raw, 0);
      if (value === UNSURE) return undefined;
      instance[key] = value;
    }
    return instance;
  };
}

/** A `@Type` property's plain object, built as its class; any other value is left to class-transformer. */
function nestedBuild(type: new () => object, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return UNSURE;
  if (Object.getPrototypeOf(value) !== Object.prototype) return UNSURE;
  return compiledBuild(type)?.(value) ?? UNSURE;
}

const UNSURE = Symbol('unsure');
/** Deeper values are left to class-transformer, which refuses what is too deep for it. */
const MAX_COPY_DEPTH = 32;

/**
 * What class-transformer makes of a JSON value under a property without its decorators: the
 * same scalars, and new arrays and plain objects holding copies. A key it would skip (one that
 * `Object.prototype` has: `__proto__`, `constructor`, `toString`...) or a value nested deeper
 * than `MAX_COPY_DEPTH` answers UNSURE, and the caller leaves the body to class-transformer.
 */
function jsonCopy(value: unknown, depth: number): unknown {
  if (isScalar(value)) return value;
  if (depth >= MAX_COPY_DEPTH || typeof value !== 'object') return UNSURE;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      const copied = jsonCopy(item, depth + 1);
      if (copied === UNSURE) return UNSURE;
      copy.push(copied);
    }
    return copy;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return UNSURE;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value as object)) {
    if (key in Object.prototype) return UNSURE;
    const copied = jsonCopy((value as Record<string, unknown>)[key], depth + 1);
    if (copied === UNSURE) return UNSURE;
    copy[key] = copied;
  }
  return copy;
}

function isScalar(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  );
}
