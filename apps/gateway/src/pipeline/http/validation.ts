import type { ErrorDetail } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { ValidationError } from 'class-validator';
import { compiledBuild, compiledCheck } from './compiled-validation';

/**
 * Flattens class-validator's tree into the envelope's details, with dotted paths such as
 * `to[0].email`; unknown properties are reported by name.
 */
function toErrorDetails(errors: ValidationError[], prefix = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const param = /^\d+$/.test(error.property)
      ? `${prefix}[${error.property}]`
      : prefix
        ? `${prefix}.${error.property}`
        : error.property;
    // A required field that is absent: one problem, not one per rule its value would have broken
    // (`@IsOptional` fields skip their rules when absent, so only required ones get here).
    if (error.value === undefined && error.constraints && !error.constraints.whitelistValidation) {
      details.push({ param, message: 'is required' });
      continue;
    }
    for (const message of Object.values(error.constraints ?? {})) {
      details.push({
        param,
        message: message.replace(/^property \S+ should not exist$/, 'is not a known field'),
      });
    }
    if (error.children?.length) details.push(...toErrorDetails(error.children, param));
  }
  return details;
}

/** Validates and converts a plain object into a DTO, or throws 422 E01001 with every problem. */
export function validateInto<T extends object>(
  type: new () => T,
  plain: unknown,
  location: 'body' | 'query',
): T {
  if (
    location === 'body' &&
    (typeof plain !== 'object' || plain === null || Array.isArray(plain))
  ) {
    throw AppError.validation([{ param: 'body', message: 'must be a JSON object' }]);
  }
  const instance = withinStack(
    () =>
      compiledBuild(type)?.(plain) ??
      plainToInstance(type, plain ?? {}, { exposeDefaultValues: true }),
  );
  // A valid request is confirmed by the DTO's compiled check; anything else, and every DTO the
  // check does not cover, goes through class-validator, which names each problem.
  if (compiledCheck(type)?.(instance)) return instance;
  const errors = withinStack(() =>
    validateSync(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    }),
  );
  if (errors.length > 0) throw AppError.validation(toErrorDetails(errors));
  return instance;
}

/** Rejects every query parameter of a route that accepts none. */
export function rejectQuery(query: Record<string, unknown>): void {
  const names = Object.keys(query);
  if (names.length > 0) {
    throw AppError.validation(
      names.map((param) => ({ param, message: 'is not a known query parameter' })),
    );
  }
}

/**
 * A body nested so deep (valid JSON within the size limit) that copying or checking it runs
 * out of stack is refused as bad input: a 422 naming the body, never a 500.
 */
function withinStack<R>(work: () => R): R {
  try {
    return work();
  } catch (err) {
    if (err instanceof RangeError)
      throw AppError.validation([{ param: 'body', message: 'is nested too deeply' }]);
    // class-transformer cannot convert a value to the field's type (an object whose toString
    // is not a function, as `{"limit": {"toString": ""}}`): bad input, never a 500.
    if (err instanceof TypeError)
      throw AppError.validation([
        { param: 'body', message: `has a value of the wrong type (${err.message})` },
      ]);
    throw err;
  }
}
