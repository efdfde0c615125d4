import { ApiError } from '../../lib/api-client.ts';

/**
 * The translation key for a failed story call: the feature's own message when the server named
 * one (`fields.stories`, e.g. too many renders), else a field message, else the common one.
 */
export function errorMessageKey(error: Error): string {
  if (!(error instanceof ApiError)) return 'errors.internal';
  const fieldKeys = Object.values(error.fields);
  const own = error.fields.stories ?? fieldKeys.find((key) => key.startsWith('errors.'));
  return own ?? error.translationKey;
}
