import { pgErrorCode } from '../../db/pg-errors.ts';
import { AppError } from '../../lib/app-error.ts';

/** PostgreSQL's refusal of a zone its tz database lacks (Intl may know zones it does not). */
function isUnknownZone(error: unknown): boolean {
  return (
    pgErrorCode(error) === '22023' &&
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string' &&
    error.message.includes('time zone')
  );
}

/** Runs a query that reads days in `timeZone`; a zone PostgreSQL does not know is the client's 400. */
export async function inZone<TResult>(run: () => Promise<TResult>): Promise<TResult> {
  try {
    return await run();
  } catch (error) {
    if (isUnknownZone(error)) {
      throw new AppError('validation_failed', 'Unknown time zone', {
        timeZone: 'errors.invalidTimeZone',
      });
    }
    throw error;
  }
}
