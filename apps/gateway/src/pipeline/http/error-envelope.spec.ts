import { CommonErrors, ContactErrors } from '@switchboard/contracts';
import { ErrorCatalog, isErrorCode } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { errorEnvelope } from './error-envelope';

const CODES = Object.keys(ErrorCatalog).filter(isErrorCode);
const details = [
  { param: 'email', message: 'ada@example.com belongs to contact con_1' },
  { param: 'phone_number', message: 'second problem' },
];

describe(errorEnvelope.name, () => {
  it.each(CODES)('carries details on %s only when its catalog type is validation_error', (code) => {
    const { error } = errorEnvelope(new AppError(code, { details }), 'req_1', 'https://api.test');
    if (ErrorCatalog[code].type === 'validation_error') expect(error.details).toEqual(details);
    else expect(error).not.toHaveProperty('details');
    // The field the details named stays readable as `param` (the SDKs' `err.param`).
    expect(error.param).toBe('email');
    expect(error).toMatchObject({
      type: ErrorCatalog[code].type,
      code,
      name: ErrorCatalog[code].name,
      request_id: 'req_1',
      doc_url: `https://api.test/v1/docs/pages?slug=errors/${code}`,
    });
  });

  it('names the field of a non-validation error as param, from the error itself', () => {
    const { error } = errorEnvelope(
      new AppError(ContactErrors.ContactPropertyExists, {
        message: 'A contact property with the key plan exists.',
        param: 'key',
      }),
      'req_1',
      'https://api.test',
    );
    expect(error).toMatchObject({
      code: 'E06006',
      message: 'A contact property with the key plan exists.',
      param: 'key',
    });
    expect(error).not.toHaveProperty('details');
  });

  it('keeps a validation error without details free of details and param', () => {
    const { error } = errorEnvelope(
      new AppError(CommonErrors.InvalidCursor),
      'req_1',
      'https://api.test',
    );
    expect(error).not.toHaveProperty('details');
    expect(error).not.toHaveProperty('param');
  });
});
