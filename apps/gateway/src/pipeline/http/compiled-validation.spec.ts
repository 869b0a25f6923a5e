import fc from 'fast-check';
import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { GATEWAY_CONTROLLERS } from '../../gateway.module';
import { LookupPhoneNumberDto } from '../../api/lookup/lookup.dto';
import { resolveDeclaredRoutes } from '../routes/resolved-routes';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { compiledBuild, compiledCheck } from './compiled-validation';

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

class Inner {
  @IsString() name: string;
}

class Outer {
  @ValidateNested() @Type(() => Inner) inner: Inner;
}

class Trimmed {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  name: string;
}

class Colour {
  @IsOptional() @IsIn(['red', 'green'], { each: true }) shades?: string[];
  @IsString() @MaxLength(5) name: string;
}

/** Values a DTO's own decorators mention (IsIn lists, bounds), plus the usual suspects. */
function interestingValues(type: object): unknown[] {
  const mentioned = getMetadataStorage()
    .getTargetValidationMetadatas(type as new () => object, '', false, false, undefined)
    .flatMap((m) => (m.constraints ?? []).flat())
    .filter((v) => ['string', 'number', 'boolean'].includes(typeof v));
  return [...mentioned, '', 'x', 'a'.repeat(300), '+31612345678', 'a@example.com', 0, -1, 1.5];
}

function plainFor(type: object, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const names = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type as new () => object, '', false, false, undefined)
        .map((m) => m.propertyName),
    ),
  ];
  const pool = interestingValues(type);
  // Bodies of the classes its `@Type` properties name, so nested DTOs are built and checked too.
  const nestedTypes = names
    .map((name) => defaultMetadataStorage.findTypeMetadata(type as new () => object, name))
    .flatMap((typed) => (typed?.typeFunction ? [typed.typeFunction() as object] : []));
  const nested = depth < 2 ? nestedTypes.map((nestedType) => plainFor(nestedType, depth + 1)) : [];
  const value = fc.oneof(
    ...nested,
    fc.constantFrom(...pool),
    fc.array(fc.constantFrom(...pool), { maxLength: 4 }),
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.constantFrom('toString', 'constructor', 'valueOf', 'x'), fc.string(), {
      maxKeys: 2,
    }),
  );
  return fc.dictionary(fc.constantFrom(...names, 'unknown', 'toString'), value, { maxKeys: 6 });
}

/** What validateInto makes of a body before validating it. */
function asRequestDto(type: new () => object, plain: unknown): object {
  return plainToInstance(type, plain, { exposeDefaultValues: true });
}

describe('compiledCheck', () => {
  it('confirms a valid lookup and leaves every invalid one to class-validator', () => {
    const check = compiledCheck(LookupPhoneNumberDto);
    expect(check).not.toBeNull();
    const valid = (plain: object) => check?.(plainToInstance(LookupPhoneNumberDto, plain)) ?? false;
    expect(valid({ phone_number: '+31612345678' })).toBe(true);
    expect(valid({ phone_number: '+31612345678', type: ['classification'] })).toBe(true);
    expect(valid({ phone_number: '' })).toBe(false);
    expect(valid({})).toBe(false);
    expect(valid({ phone_number: '+31612345678', colour: 'red' })).toBe(false);
    expect(valid({ phone_number: '+31612345678', type: ['nope'] })).toBe(false);
  });

  it('runs each-rules on every item, and skips optional properties that are absent', () => {
    const check = compiledCheck(Colour);
    const valid = (plain: object) => check?.(plainToInstance(Colour, plain)) ?? false;
    expect(valid({ name: 'sky' })).toBe(true);
    expect(valid({ name: 'sky', shades: ['red', 'green'] })).toBe(true);
    expect(valid({ name: 'sky', shades: ['red', 'blue'] })).toBe(false);
    expect(valid({ name: 'skyline' })).toBe(false);
  });

  it('builds the instance plainToInstance builds, and leaves class-transformer decorators to it', () => {
    const build = compiledBuild(Colour);
    expect(build).not.toBeNull();
    const built = build?.({ name: 'sky', shades: ['red'] });
    expect(built).toBeInstanceOf(Colour);
    expect(built).toStrictEqual(asRequestDto(Colour, { name: 'sky', shades: ['red'] }));
    expect(build?.({ name: 'sky', colour: 'red' })).toBeUndefined();
    // Objects and arrays are copied as class-transformer copies them.
    const nested = JSON.parse('{"name": {"first": "sky", "tags": [1, {"a": null}]}}') as object;
    expect(build?.(nested)).toStrictEqual(asRequestDto(Colour, nested));
    expect((build?.(nested) as { name: unknown }).name).not.toBe(
      (nested as { name: unknown }).name,
    );
    // Keys class-transformer drops, and depths it may refuse, are left to it.
    for (const key of ['__proto__', 'constructor', 'toString'])
      expect(build?.(JSON.parse(`{"name": {"${key}": "x"}}`))).toBeUndefined();
    const deep = JSON.parse(`{"name": ${'['.repeat(40)}1${']'.repeat(40)}}`) as object;
    expect(build?.(deep)).toBeUndefined();
    expect(compiledBuild(Trimmed)).toBeNull();
  });

  it('builds and checks a nested class as class-transformer and class-validator do', () => {
    const valid = { inner: { name: 'sky' } };
    const built = compiledBuild(Outer)?.(valid);
    expect(built).toStrictEqual(asRequestDto(Outer, valid));
    expect((built as Outer).inner).toBeInstanceOf(Inner);
    expect(compiledCheck(Outer)?.(built as Outer)).toBe(true);
    expect(compiledCheck(Outer)?.(new Outer())).toBe(true);
    // Anything class-validator would refuse, or checks item by item, is left to it.
    for (const inner of [{ name: 1 }, 'sky', null, [{ name: 'sky' }]]) {
      const instance = asRequestDto(Outer, { inner });
      expect(compiledCheck(Outer)?.(instance)).toBe(false);
    }
    expect(compiledBuild(Outer)?.({ inner: { name: 'sky', extra: 1 } })).toBeUndefined();
    expect(compiledBuild(Outer)?.({ inner: [{ name: 'sky' }] })).toBeUndefined();
  });

  it('leaves classes with no rules at all to class-validator', () => {
    expect(compiledCheck(class Bare {})).toBeNull();
  });

  it('never confirms what class-validator refuses, nor builds another instance, for every route DTO', () => {
    expect(GATEWAY_CONTROLLERS.length).toBeGreaterThan(0);
    const types = new Set(
      resolveDeclaredRoutes().flatMap(({ policy }) => [policy.body, policy.query]),
    );
    let compiledTypes = 0;
    let confirmed = 0;
    let builtBodies = 0;
    for (const type of types) {
      if (!type) continue;
      const check = compiledCheck(type);
      if (!check) continue;
      compiledTypes++;
      fc.assert(
        fc.property(plainFor(type), (generated) => {
          // What a request body is: parsed JSON.
          const plain = JSON.parse(JSON.stringify(generated)) as Record<string, unknown>;
          let instance: object;
          try {
            instance = asRequestDto(type, plain);
          } catch (err) {
            // class-transformer cannot convert a value (`{"limit": {"toString": ""}}`): the
            // request is refused with 422 (validateInto); the compiled path must not accept it.
            if (!(err instanceof TypeError)) throw err;
            const rebuilt = compiledBuild(type)?.(plain);
            expect(rebuilt === undefined || !check(rebuilt)).toBe(true);
            return;
          }
          const built = compiledBuild(type)?.(plain);
          if (built) {
            builtBodies++;
            expect(built).toStrictEqual(instance);
          }
          if (!check(instance)) return;
          confirmed++;
          expect(validateSync(instance, OPTIONS)).toEqual([]);
        }),
        { numRuns: 150 },
      );
    }
    expect(compiledTypes).toBeGreaterThan(10);
    // The generated bodies reach the confirming path often, or the property says little.
    expect(confirmed).toBeGreaterThan(compiledTypes * 5);
    expect(builtBodies).toBeGreaterThan(compiledTypes * 5);
  });
});
