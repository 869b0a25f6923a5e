import { StatsQueryProblem } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';

/**
 * Runs a stats query, turning the shared rules' problems into the service's `AppError` (422 with
 * details naming the parameter), and a zone PostgreSQL does not know into the same answer as one
 * the runtime does not.
 */
export async function answeringProblems<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StatsQueryProblem)
      throw new AppError(error.code, {
        message: error.code === 'E01001' ? error.message : undefined,
        details: error.details,
        param: error.details[0]?.param,
      });
    if (
      (error as { code?: string }).code === '22023' &&
      /time zone/.test(String((error as Error).message))
    )
      throw new AppError('E01001', {
        message: 'timezone must be an IANA zone name such as Asia/Kathmandu',
        details: [{ param: 'timezone', message: 'timezone is not a zone this server knows' }],
        param: 'timezone',
      });
    throw error;
  }
}
