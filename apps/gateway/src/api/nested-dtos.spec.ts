import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** Every DTO module of the gateway, found on disk: a new one is checked without being listed. */
function dtoModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return dtoModules(path);
    return entry.name.endsWith('.dto.ts') ? [path] : [];
  });
}

/**
 * `@ValidateNested` walks into an array (or an array of arrays) as readily as into an object,
 * so without `@IsObject` beside it `[]` passes for a nested DTO and `[[]]` for an item of a list
 * of them, and reaches the service as something it never expected (a 500, or an array stored
 * where an object belongs).
 */
describe('nested DTOs of the gateway', () => {
  beforeAll(async () => {
    for (const file of dtoModules(join(__dirname, '..'))) await import(file);
  });

  it('declares @IsObject beside every @ValidateNested, with the same each', () => {
    const storage = getMetadataStorage() as unknown as {
      validationMetadatas: Map<unknown, ValidationMetadata[]>;
    };
    const unguarded: string[] = [];
    let nested = 0;
    for (const metadatas of storage.validationMetadatas.values()) {
      for (const rule of metadatas.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION)) {
        nested += 1;
        const guarded = metadatas.some(
          (m) =>
            m.propertyName === rule.propertyName &&
            m.name === 'isObject' &&
            Boolean(m.each) === Boolean(rule.each),
        );
        if (!guarded)
          unguarded.push(`${(rule.target as { name: string }).name}.${rule.propertyName}`);
      }
    }
    expect(nested).toBeGreaterThan(20);
    expect(unguarded).toEqual([]);
  });
});
