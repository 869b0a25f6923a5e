import { AppError } from '@switchboard/platform';

/** The details of the 422 (E01001) that `run` throws; fails the test when it throws none. */
export function validationFailure(run: () => unknown): Array<{ param: string; message: string }> {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('E01001');
    return (err as AppError).details ?? [];
  }
  throw new Error('expected a validation error');
}
